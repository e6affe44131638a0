/// What a hook is told about the app and the event it receives (BeeHive's `BHContext`).
///
/// One context is made per dispatch and passed to every module, so it costs nothing per module.
public struct ModuleContext: Sendable {
    /// The manager dispatching the event, to register handlers or modules from a hook.
    public let manager: ModuleManager
    public let event: ModuleEvent
    /// The parameter given to `trigger`, or what a source attached (the URL for `openURL`, the signal for
    /// `willTerminate`, the reading for `didReceiveMemoryWarning`).
    public let customParameter: (any Sendable)?
    public let environment: ModuleEnvironment

    init(manager: ModuleManager, event: ModuleEvent, customParameter: (any Sendable)?, environment: ModuleEnvironment) {
        self.manager = manager
        self.event = event
        self.customParameter = customParameter
        self.environment = environment
    }

    /// The custom event being dispatched, if this is one.
    public var customEvent: CustomEvent? {
        if case .custom(let event) = event { return event }
        return nil
    }

    /// The custom parameter as a `T`, or nil when there is none or it is of another type.
    public func customParameter<T>(as type: T.Type) -> T? {
        customParameter as? T
    }

    public var config: ConfigStore { manager.config }

    public var launchOptions: LaunchOptions { manager.launchOptions }
}
