#if canImport(Glibc)
import BeeHiveLocks
import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC, and a small number per thread, for the profiler.
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static let threadNumbers = Locked<[UInt: Int]>([:])

    /// 1 for the first thread that asks, 2 for the next, and so on: trace viewers show these as rows.
    /// (Glibc's `gettid` is not visible to Swift, and `pthread_t` values are unreadable addresses.)
    static func threadID() -> Int {
        let thread = UInt(pthread_self())
        return threadNumbers.withLock { numbers in
            if let number = numbers[thread] { return number }
            let number = numbers.count + 1
            numbers[thread] = number
            return number
        }
    }
}
