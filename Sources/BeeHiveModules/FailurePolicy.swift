/// What the manager does when a hook throws. The failure is reported either way.
public enum FailurePolicy: Sendable, Hashable {
    /// Stop the dispatch or launch at the first failing hook and throw `ModuleError.hookFailed`.
    case failFast
    /// Report the failure and deliver the event to the remaining modules.
    case `continue`
}
