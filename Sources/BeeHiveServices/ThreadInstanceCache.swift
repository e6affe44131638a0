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
final class ThreadInstanceCache {
    /// The manager the copy belongs to (`ServiceManager.identity`, never reused), or 0.
    var manager: UInt64 = 0
    var generation: UInt64 = 0
    @exclusivity(unchecked) var cache = InstanceCache()

    /// The calling thread's copy, made on its first lookup and released when the thread exits.
    static var current: ThreadInstanceCache {
        if let stored = pthread_getspecific(key) {
            return Unmanaged<ThreadInstanceCache>.fromOpaque(stored).takeUnretainedValue()
        }
        let made = ThreadInstanceCache()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { stored in
            guard let stored else { return }
            Unmanaged<ThreadInstanceCache>.fromOpaque(stored).release()
        }
        return key
    }()
}

/// The generation of a manager's cache, published for lock-free readers.
final class PublishedGeneration: Sendable {
    private let value = Atomic<UInt64>(0)

    func load() -> UInt64 { value.load(ordering: .acquiring) }

    func store(_ generation: UInt64) { value.store(generation, ordering: .releasing) }
}
