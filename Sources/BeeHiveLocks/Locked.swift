#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`, used like `Synchronization.Mutex`; the one lock of every BeeHive target.
///
/// Not `Mutex`, because on Linux `Mutex` takes a contended lock in the kernel (a priority-inheritance
/// futex), where ThreadSanitizer cannot see it. TSan then reports every contended critical section as a race
/// (reproduced with Swift 6.3.1: 32 threads incrementing a counter under `Mutex.withLock` give the right total
/// and a race report). TSan intercepts `pthread_mutex_lock`, and an uncontended lock costs about the same.
///
/// `@unchecked Sendable`: `value` is only reached inside `withLock`, under the mutex.
///
/// Give it a value with a size: a zero-sized one (`Locked(())`) shares its address with `mutex`, and TSan
/// reports the locked access of it and the next caller's read of `mutex` as a race.
///
/// Inlinable, so that generic code inlined into its callers (`RecordLedger`) is specialized there, lock and all.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The mutex already makes every access exclusive; the runtime's check would double the cost of a lookup.
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
