#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells ThreadSanitizer, when the process runs under it, about an ordering it cannot see.
///
/// Copy-on-write state that readers share without a lock is ordered by the atomic reference count: a writer
/// changes a buffer in place only once no reader holds it. The Swift runtime is not instrumented, so TSan does
/// not see that ordering and reports a race. A reader calls ``release(_:)`` on an address before it lets go of
/// what it read, and a writer calls ``acquire(_:)`` on the same address before changing it; TSan then orders the
/// two as it would a lock. Without ThreadSanitizer both are a load and a branch.
package enum ThreadSanitizer {
    private typealias Annotation = @convention(c) (UnsafeRawPointer) -> Void

    /// TSan's own annotation entry points, found in the process when its runtime is linked in.
    private static let annotations: (acquire: Annotation, release: Annotation)? = {
        guard let process = dlopen(nil, RTLD_NOW),
            let acquire = dlsym(process, "__tsan_acquire"), let release = dlsym(process, "__tsan_release")
        else { return nil }
        return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
    }()

    /// Whether the process runs under ThreadSanitizer.
    package static var isActive: Bool { annotations != nil }

    package static func acquire(_ address: UnsafeRawPointer) {
        annotations?.acquire(address)
    }

    package static func release(_ address: UnsafeRawPointer) {
        annotations?.release(address)
    }
}
