#if canImport(Glibc)
import Glibc
#endif

/// A value guarded by a pthread mutex, with `Synchronization.Mutex`'s `withLock`.
///
/// Used instead of `Mutex` because on Linux `Mutex` is a futex driven from the standard library, which
/// ThreadSanitizer does not instrument: under contention it reports every access to the guarded value as a
/// race (reproduced with Swift 6.3.1). TSan intercepts pthread mutexes, so with this lock the sanitizer
/// checks the locking for real.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
