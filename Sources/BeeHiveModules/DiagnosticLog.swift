import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Logging

/// Keeps, logs and forwards the manager's diagnostics. Shared with the watchdog, which reports from its own
/// queue. It keeps the newest `limit` and counts the older ones it lets go; every one is logged and forwarded.
final class DiagnosticLog: Sendable {
    private let logger: Logger
    private let forward: (@Sendable (ModuleDiagnostic) -> Void)?
    private let kept: Locked<BoundedHistory<ModuleDiagnostic>>

    init(limit: Int, logger: Logger, forward: (@Sendable (ModuleDiagnostic) -> Void)?) {
        self.logger = logger
        self.forward = forward
        kept = Locked(BoundedHistory(limit: limit))
    }

    var diagnostics: [ModuleDiagnostic] {
        kept.withLock { $0.entries }
    }

    var dropped: Int {
        kept.withLock { $0.dropped }
    }

    func report(_ diagnostic: ModuleDiagnostic) {
        kept.withLock { $0.append(diagnostic) }
        switch diagnostic.severity {
        case .warning: logger.warning("\(diagnostic.description)")
        case .error: logger.error("\(diagnostic.description)")
        }
        forward?(diagnostic)
    }
}
