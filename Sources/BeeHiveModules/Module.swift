/// A unit of an app that the module manager sets up, initializes and notifies (BeeHive's `BHModuleProtocol`).
///
/// Every hook has a default that does nothing, so a module implements only what it needs. Hooks here are
/// synchronous and may throw: the manager reports the error with the module and the event, and the module's
/// `failureBehavior` (by default the manager's `FailurePolicy`) decides whether the rest goes on. A module
/// that needs `await` in its hooks conforms to `AsyncModule` instead.
///
///     final class ShopModule: Module {
///         static var dependencies: [ModuleDependency] { [.module(NetworkModule.self)] }
///         init() {}
///         func setUp(_ context: ModuleContext) throws { ... }
///     }
///
/// `init()` is required so that annotated and configured modules can be made from their type's name.
public protocol Module: AnyObject, Sendable {
    init()

    /// The modules that must be initialized before this one, by type or by name.
    static var dependencies: [ModuleDependency] { get }

    /// How long each of this module's launch and shutdown hooks may run; nil (the default) takes the
    /// manager's `launchTimeLimit` or `shutdownTimeLimit`.
    static var hookTimeLimit: Duration? { get }

    /// What a failing hook of this module does to the app; `.managerPolicy` by default.
    static var failureBehavior: ModuleFailureBehavior { get }

    func setUp(_ context: ModuleContext) throws
    func initialize(_ context: ModuleContext) throws
    func splash(_ context: ModuleContext) throws
    func tearDown(_ context: ModuleContext) throws
    func unmount(_ context: ModuleContext) throws

    func willTerminate(_ context: ModuleContext) throws
    func reload(_ context: ModuleContext) throws
    func didReceiveMemoryWarning(_ context: ModuleContext) throws
    /// SIGUSR1 or SIGUSR2: `context.event` says which.
    func didReceiveUserSignal(_ context: ModuleContext) throws
    /// The URL is `context.customParameter`.
    func openURL(_ context: ModuleContext) throws

    /// The module as an ``AsyncModule``, or nil. Supplied by the protocols' extensions; do not implement it.
    /// A requirement rather than an `as?` cast because the first cast of each type scans every conformance
    /// record of the process (tens of microseconds per registered module).
    var _asyncModule: (any AsyncModule)? { get }
}

extension Module {
    public static var dependencies: [ModuleDependency] { [] }
    public static var hookTimeLimit: Duration? { nil }
    public static var failureBehavior: ModuleFailureBehavior { .managerPolicy }

    public func setUp(_ context: ModuleContext) throws {}
    public func initialize(_ context: ModuleContext) throws {}
    public func splash(_ context: ModuleContext) throws {}
    public func tearDown(_ context: ModuleContext) throws {}
    public func unmount(_ context: ModuleContext) throws {}
    public func willTerminate(_ context: ModuleContext) throws {}
    public func reload(_ context: ModuleContext) throws {}
    public func didReceiveMemoryWarning(_ context: ModuleContext) throws {}
    public func didReceiveUserSignal(_ context: ModuleContext) throws {}
    public func openURL(_ context: ModuleContext) throws {}
    public var _asyncModule: (any AsyncModule)? { nil }
}

extension Module {
    /// The name the manager knows the module by: its fully qualified type name, such as `Shop.ShopModule`.
    /// (`_typeName` rather than `String(reflecting:)`, which searches every conformance of the process for
    /// printing protocols: milliseconds per type at startup.)
    public static var moduleName: String { _typeName(self, qualified: true) }
}
