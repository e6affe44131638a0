#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex, with a condition that threads holding the mutex wait on until another thread changes
/// the value. Like `Locked`, it uses pthread objects so that ThreadSanitizer sees every wait and wake.
///
/// `@unchecked Sendable`: `value` is only reached inside `withLock`, under the mutex.
package final class LockedCondition<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held. `body` may call the `wait` it is given, which lets the mutex go until
    /// another thread's `withLock` ends with a broadcast, then takes it again: check the value again after it.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value, _ wait: () -> Void) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value) { pthread_cond_wait(condition, mutex) }
    }

    /// Like `withLock`, then wakes every waiting thread: for a change that waiters look for.
    package func withLockBroadcasting<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }
}
