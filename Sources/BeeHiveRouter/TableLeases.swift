import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Copies of a router's tables kept between routing calls, so that a call neither takes the router's lock nor
/// retains the tables: one compare-and-swap leases the copy of the calling thread's slot, one store returns it.
/// Taking the lock and copying the tables cost two atomic operations per call (four in a process with threads,
/// where the lock is atomic too) and about 110 instructions more.
///
/// Threads are spread over the slots by identity. A thread whose slot is leased (by another thread, or by its
/// own outer routing call when a handler routes again) copies the tables under the lock instead, as every call
/// used to. A copy is current while its version is the router's: every change to the tables bumps the version
/// and, under the router's lock and before changing anything, empties the idle slots, so that the change finds
/// the tables held by no copy and makes it in place. A slot leased meanwhile keeps its copy, which the change then
/// does not touch (copy-on-write); the next lease sees the copy is old and fills the slot again.
///
/// The atomic state orders the slot's fields: only the holder of the lease, or a writer that emptied the slot
/// with a compare-and-swap, reads or writes them; hence `@unchecked Sendable`. The thread sanitizer sees these
/// atomics, so it checks this path as it is.
final class TableLeases: @unchecked Sendable {
    /// A slot's tables, held from ``lease()`` until ``release(_:beforeLettingGo:)``.
    struct Lease {
        fileprivate let slot: UnsafeMutableRawPointer

        /// The leased copy, read in place: reading it retains nothing.
        var tables: UnsafeMutablePointer<RouterTables> { TableLeases.tables(of: slot) }
    }

    private static let empty = 0
    private static let idle = 1
    private static let leased = 2
    /// A power of two.
    private static let slotCount = 16
    /// Each slot: its state (``empty``, ``idle`` or ``leased``), the router's version when its copy was made (0
    /// when empty), then the copy.
    private static let versionOffset = MemoryLayout<Atomic<Int>>.stride
    private static let tablesOffset = versionOffset + MemoryLayout<UInt64>.stride
    /// Whole 64-byte cache lines, so that threads leasing neighbouring slots do not share a line.
    private static let stride = (tablesOffset + MemoryLayout<RouterTables>.stride + 63) & ~63

    private let slots: UnsafeMutableRawPointer
    /// Changed under the router's lock only; read without it by every lease.
    private let version = Atomic<UInt64>(1)
    /// A bit per slot that may hold a copy, so that a change skips the slots no thread has used: looking at all
    /// sixteen, a cache line each, made removing 10,000 routes a third slower.
    private let filled = Atomic<UInt64>(0)
    /// What an empty slot holds: no routes, so emptying a slot releases what its copy held.
    private let emptyTables: RouterTables

    init() {
        assert(MemoryLayout<RouterTables>.alignment <= 8 && MemoryLayout<Atomic<Int>>.alignment <= 8)
        emptyTables = RouterTables(configuration: RouterConfiguration())
        slots = .allocate(byteCount: Self.slotCount * Self.stride, alignment: 64)
        for index in 0..<Self.slotCount {
            let slot = slots + index * Self.stride
            slot.initializeMemory(as: Atomic<Int>.self, to: Atomic(Self.empty))
            (slot + Self.versionOffset).initializeMemory(as: UInt64.self, repeating: 0, count: 1)
            (slot + Self.tablesOffset).initializeMemory(as: RouterTables.self, repeating: emptyTables, count: 1)
        }
    }

    deinit {
        for index in 0..<Self.slotCount {
            let slot = slots + index * Self.stride
            Self.tables(of: slot).deinitialize(count: 1)
            Self.state(of: slot).deinitialize(count: 1)
        }
        slots.deallocate()
    }

    private static func state(of slot: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<Int>> {
        slot.assumingMemoryBound(to: Atomic<Int>.self)
    }

    private static func version(of slot: UnsafeMutableRawPointer) -> UnsafeMutablePointer<UInt64> {
        (slot + versionOffset).assumingMemoryBound(to: UInt64.self)
    }

    fileprivate static func tables(of slot: UnsafeMutableRawPointer) -> UnsafeMutablePointer<RouterTables> {
        (slot + tablesOffset).assumingMemoryBound(to: RouterTables.self)
    }

    /// The calling thread's slot, leased; nil when it is leased already. Its copy may be old or empty: check
    /// ``isCurrent(_:)``, and ``fill(_:with:version:)`` it under the router's lock.
    @inline(__always)
    func lease() -> Lease? {
        // `pthread_self` is the address of the thread's control block; mixed, its bits spread threads evenly.
        let thread = UInt64(pthread_self())
        let slot = slots + Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60) * Self.stride
        let state = Self.state(of: slot)
        let current = state.pointee.load(ordering: .relaxed)
        guard current != Self.leased,
            state.pointee.compareExchange(expected: current, desired: Self.leased, ordering: .acquiring).exchanged
        else { return nil }
        return Lease(slot: slot)
    }

    /// Whether the leased copy is of the router's current tables.
    @inline(__always)
    func isCurrent(_ lease: Lease) -> Bool {
        Self.version(of: lease.slot).pointee == version.load(ordering: .acquiring)
    }

    /// The version of the router's tables, to read under its lock with them.
    var currentVersion: UInt64 { version.load(ordering: .relaxed) }

    /// Replaces the leased copy with tables copied under the router's lock at `version`. Called after the lock
    /// is released, so that the old copy, which may hold the last reference to a removed route's handler, is
    /// released outside it.
    func fill(_ lease: Lease, with tables: RouterTables, version: UInt64) {
        Self.tables(of: lease.slot).pointee = tables
        Self.version(of: lease.slot).pointee = version
        let bit = bit(of: lease.slot)
        if filled.load(ordering: .relaxed) & bit == 0 { filled.bitwiseOr(bit, ordering: .relaxed) }
    }

    private func bit(of slot: UnsafeMutableRawPointer) -> UInt64 {
        1 << UInt64((slot - slots) / Self.stride)
    }

    /// Returns the slot. A copy made old during the call (a handler changed the routes) is let go of first, so that
    /// a removed route's handler, and what it captured, is released when the call ends, as it would be without
    /// the slot. `beforeLettingGo` runs just before, while the copy still holds the tables: the router passes
    /// through its lock there under the thread sanitizer (`Router.endReading`).
    @inline(__always)
    func release(_ lease: Lease, beforeLettingGo: () -> Void = {}) {
        if !isCurrent(lease) {
            beforeLettingGo()
            clear(lease.slot)
        }
        Self.state(of: lease.slot).pointee.store(Self.idle, ordering: .releasing)
    }

    private func clear(_ slot: UnsafeMutableRawPointer) {
        Self.tables(of: slot).pointee = emptyTables
        Self.version(of: slot).pointee = 0
    }

    /// Call under the router's lock before its tables change: every copy becomes old, and the idle ones are
    /// emptied, so that the change finds the tables held by no copy and makes it in place.
    func invalidate() {
        version.add(1, ordering: .releasing)
        // A bit missed here (a slot filled meanwhile) costs the change a copy of the tables, not correctness.
        var pending = filled.load(ordering: .relaxed)
        while pending != 0 {
            let index = pending.trailingZeroBitCount
            pending &= pending - 1
            let slot = slots + index * Self.stride
            let state = Self.state(of: slot)
            guard state.pointee.load(ordering: .relaxed) == Self.idle,
                state.pointee.compareExchange(expected: Self.idle, desired: Self.leased, ordering: .acquiring).exchanged
            else { continue }
            clear(slot)
            // Before the slot is let go: a thread filling it again sets its bit after this.
            filled.bitwiseAnd(~bit(of: slot), ordering: .relaxed)
            state.pointee.store(Self.empty, ordering: .releasing)
        }
    }
}
