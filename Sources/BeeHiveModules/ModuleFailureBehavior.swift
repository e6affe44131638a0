/// What a failing hook of one module does to the app, whatever the manager's `FailurePolicy` says for the
/// others (swift-service-lifecycle's termination behaviours, per module). The failure is reported either way.
///
///     final class DatabaseModule: AsyncModule {
///         static var failureBehavior: ModuleFailureBehavior { .stopsApp }
///     }
public enum ModuleFailureBehavior: Sendable, Hashable {
    /// Follow the manager's `FailurePolicy`. The default.
    case managerPolicy
    /// A failure of this module ends the launch like `.failFast` would, makes `waitForLaunch()` throw and
    /// resolves `failureStoppingApp()`, which ends a `ServiceGroup` running the host.
    case stopsApp
    /// A failure of this module is only reported, even under `.failFast`: the app runs without it.
    case reportOnly
}
