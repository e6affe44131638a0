/// The error of a hook that ran longer than its time limit. An asynchronous hook is cancelled when its limit
/// passes and the lifecycle goes on without waiting for it; a synchronous one cannot be interrupted and is
/// reported when it returns.
public struct HookTimeLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    public let limit: Duration

    package init(limit: Duration) {
        self.limit = limit
    }

    public var description: String {
        "ran longer than its time limit of \(limit.formattedSeconds); make it faster, or raise the module's hookTimeLimit or the manager's launch or shutdown time limit"
    }
}
