/// The events the manager drives itself, in the order a module sees them.
public enum LifecycleEvent: String, Sendable, Hashable, CaseIterable {
    /// BeeHive's `modSetUp`: every module, in order, before any module initializes.
    case setUp
    /// BeeHive's `modInit`; runs off the startup path for asynchronous modules.
    case initialize = "init"
    /// BeeHive's `modSplash`: once every module of the launch has initialized, asynchronous ones included.
    case splash
    /// BeeHive's `modTearDown`: in reverse order.
    case tearDown
    /// BeeHive's `modUnmount`: when the module is unregistered or its plugin is unloaded.
    case unmount
}
