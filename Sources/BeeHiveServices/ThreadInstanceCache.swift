import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Each thread's copy of the cached instances of the manager it last looked up in, so that the cached lookup
/// path takes no lock and writes no shared memory: threads looking up at once do not serialise on the
/// manager's lock or bounce its cache line.
///
/// A copy is valid while the manager's published generation is the one it was filled at; any change of the
/// registrations or cached instances bumps the generation, and the next lookup refills the copy from the
/// manager's shared cache. A copy keeps its instances alive until its thread looks up again or exits.
///
/// Only its own thread touches a copy, so its fields opt out of the runtime's exclusivity checks, which would
/// cost the cached path more than the probe.
final class ThreadInstanceCache {
    /// The manager the copy belongs to (`ServiceManager.identity`, never reused), or 0.
    @exclusivity(unchecked) private(set) var manager: UInt64 = 0
    @exclusivity(unchecked) private(set) var generation: UInt64 = 0
    /// Owns the copied instances; named lookups probe it.
    @exclusivity(unchecked) private var instances = TypeKeyedTable<TypedInstance>()
    /// The unnamed instances' values by type address, for the common lookup: plain words, so that a probe
    /// neither compares strings nor retains anything. Each value lives in a box `instances` holds.
    @exclusivity(unchecked) private var unnamed: UnsafeMutablePointer<Slot>
    @exclusivity(unchecked) private var mask = 15
    @exclusivity(unchecked) private var unnamedCount = 0

    private struct Slot {
        /// The type's address; 0 for an empty slot.
        var type: UInt
        var storage: UnsafeMutableRawPointer?
    }

    private init() {
        unnamed = .allocate(capacity: mask + 1)
        unnamed.initialize(repeating: Slot(type: 0, storage: nil), count: mask + 1)
    }

    deinit {
        unnamed.deallocate()
    }

    /// Where the value of `type` under `name` is kept, if the copy has it: valid until this thread changes
    /// the copy.
    @inline(__always)
    func storage(of type: ObjectIdentifier, name: String?) -> UnsafeMutableRawPointer? {
        guard name == nil else { return instances.value(of: type, name: name)?.storage }
        let address = UInt(bitPattern: type)
        var index = Self.slot(address) & mask
        while true {
            let slot = unnamed[index]
            if slot.type == address { return slot.storage }
            if slot.type == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Adds an instance copied from the manager's cache, first emptying the copy when it belongs to another
    /// manager or generation.
    func insert(
        _ instance: TypedInstance, of type: ObjectIdentifier, name: String?, manager: UInt64, generation: UInt64
    ) {
        if self.manager != manager || self.generation != generation {
            self.manager = manager
            self.generation = generation
            instances.removeAll()
            if unnamedCount > 0 {
                unnamed.update(repeating: Slot(type: 0, storage: nil), count: mask + 1)
                unnamedCount = 0
            }
        }
        instances.insert(instance, of: type, name: name)
        if name == nil { insertUnnamed(UInt(bitPattern: type), instance.storage) }
    }

    private func insertUnnamed(_ address: UInt, _ storage: UnsafeMutableRawPointer) {
        // At most half full, so probes stay short and always end at an empty slot.
        if (unnamedCount + 1) * 2 > mask + 1 {
            let old = unnamed, oldCapacity = mask + 1
            unnamed = .allocate(capacity: oldCapacity * 2)
            unnamed.initialize(repeating: Slot(type: 0, storage: nil), count: oldCapacity * 2)
            mask = oldCapacity * 2 - 1
            unnamedCount = 0
            for index in 0..<oldCapacity where old[index].type != 0 {
                insertUnnamed(old[index].type, old[index].storage!)
            }
            old.deallocate()
        }
        var index = Self.slot(address) & mask
        while unnamed[index].type != 0 && unnamed[index].type != address {
            index = (index + 1) & mask
        }
        if unnamed[index].type == 0 { unnamedCount += 1 }
        unnamed[index] = Slot(type: address, storage: storage)
    }

    @inline(__always)
    private static func slot(_ address: UInt) -> Int {
        // Fibonacci hashing: the high bits of the product mix every bit of the address.
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    /// Runs `body` with the calling thread's copy, made on its first lookup and released when the thread exits.
    /// Lends the copy without retaining it: only this thread releases it, and not before the thread ends.
    @inline(__always)
    static func withCurrent<Result>(_ body: (ThreadInstanceCache) -> Result) -> Result {
        let key = Self.key.load(ordering: .acquiring)
        if key != 0, let stored = pthread_getspecific(key - 1) {
            return Unmanaged<ThreadInstanceCache>.fromOpaque(stored)._withUnsafeGuaranteedRef(body)
        }
        return body(makeCurrent())
    }

    @inline(never)
    private static func makeCurrent() -> ThreadInstanceCache {
        let made = ThreadInstanceCache()
        pthread_setspecific(makeKey(), Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The thread-specific data key plus one, or 0 before the first lookup: an atomic rather than a lazily
    /// initialised global, whose `swift_once` check would be a call on every lookup.
    private static let key = Atomic<pthread_key_t>(0)

    private static func makeKey() -> pthread_key_t {
        let known = key.load(ordering: .acquiring)
        if known != 0 { return known - 1 }
        var created = pthread_key_t()
        pthread_key_create(&created) { stored in
            guard let stored else { return }
            Unmanaged<ThreadInstanceCache>.fromOpaque(stored).release()
        }
        let (exchanged, original) = key.compareExchange(expected: 0, desired: created + 1, ordering: .acquiringAndReleasing)
        guard exchanged else {
            // Another thread made the key first.
            pthread_key_delete(created)
            return original - 1
        }
        return created
    }
}
