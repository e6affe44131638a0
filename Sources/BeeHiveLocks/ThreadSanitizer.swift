#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the process runs under ThreadSanitizer, for orderings that only TSan needs spelled out.
///
/// Copy-on-write state that readers share without a lock is ordered by the atomic reference count: a writer
/// changes a buffer in place only once no reader holds it. The Swift runtime is not instrumented, so TSan does not
/// see that ordering and reports a race; code that relies on it can pass through its lock under TSan only.
package enum ThreadSanitizer {
    /// Found once: TSan's runtime, linked into the process, exports its annotation entry points.
    package static let isActive: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_acquire") != nil
    }()
}
