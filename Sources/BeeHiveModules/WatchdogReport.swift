/// A hook that kept running longer than the watchdog's threshold.
public struct WatchdogReport: Sendable, Hashable, CustomStringConvertible {
    public let module: String
    public let event: ModuleEvent
    public let threshold: Duration
    /// How long the hook had been running when it was reported, at least.
    public let blockedFor: Duration

    package init(module: String, event: ModuleEvent, threshold: Duration, blockedFor: Duration) {
        self.module = module
        self.event = event
        self.threshold = threshold
        self.blockedFor = blockedFor
    }

    public var description: String {
        "module \(module) has been blocking in \(event) for at least \(blockedFor.formattedSeconds) (watchdog threshold \(threshold.formattedSeconds)); move slow work off this hook or make the module async"
    }
}

extension Duration {
    var formattedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return "\((seconds * 1000).rounded() / 1000) s"
    }

    var nanoseconds: UInt64 {
        UInt64(max(0, components.seconds)) * 1_000_000_000 + UInt64(max(0, components.attoseconds) / 1_000_000_000)
    }
}
