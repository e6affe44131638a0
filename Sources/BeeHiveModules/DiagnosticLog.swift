import BeeHiveLocks
import Logging

/// Keeps, logs and forwards the manager's diagnostics. Shared with the watchdog, which reports from its own
/// queue.
final class DiagnosticLog: Sendable {
    /// Diagnostics beyond this are logged and forwarded but not kept.
    static let capacity = 1000

    private let logger: Logger
    private let forward: (@Sendable (ModuleDiagnostic) -> Void)?
    private let kept = Locked<[ModuleDiagnostic]>([])

    init(logger: Logger, forward: (@Sendable (ModuleDiagnostic) -> Void)?) {
        self.logger = logger
        self.forward = forward
    }

    var diagnostics: [ModuleDiagnostic] {
        kept.withLock { $0 }
    }

    func report(_ diagnostic: ModuleDiagnostic) {
        kept.withLock { kept in
            if kept.count < Self.capacity { kept.append(diagnostic) }
        }
        switch diagnostic.severity {
        case .warning: logger.warning("\(diagnostic.description)")
        case .error: logger.error("\(diagnostic.description)")
        }
        forward?(diagnostic)
    }
}
