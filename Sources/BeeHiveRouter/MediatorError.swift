@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Why a mediator call failed.
public enum MediatorError: Error, Sendable, CustomStringConvertible {
    /// No target is registered under this name, and no fallback is set.
    case unknownTarget(target: String, action: String)
    /// The target has no such action, and no fallback is set.
    case unknownAction(target: String, action: String)
    /// The action threw.
    case actionFailed(target: String, action: String, underlying: any Error)
    /// The URL is not of the form `scheme://target/action?key=value`.
    case invalidURL(url: String, reason: String)
    /// The action may only be called in code, not through a URL (CTMediator's `native` prefix).
    case localOnlyAction(target: String, action: String, prefix: String)
    /// The action returned something else than the type asked for.
    case unexpectedResult(target: String, action: String, expected: String, actual: String)
    /// A plugin of a plugin folder declares the target, but could not be loaded at its first use; the error
    /// names the plugin file and says why.
    case pluginUnavailable(DeferredPluginError)

    public var description: String {
        switch self {
        case .unknownTarget(let target, let action):
            "mediator: no target '\(target)' (for action '\(action)'); register it in code or with a target annotation"
        case .unknownAction(let target, let action):
            "mediator: target '\(target)' has no action '\(action)'; add the case to its Action enum or fix the name"
        case .actionFailed(let target, let action, let underlying):
            "mediator: action '\(action)' of target '\(target)' failed: \(underlying)"
        case .invalidURL(let url, let reason):
            "mediator: cannot perform \(url): \(reason); use scheme://target/action?key=value"
        case .localOnlyAction(let target, let action, let prefix):
            "mediator: action '\(action)' of target '\(target)' starts with '\(prefix)' and can only be performed in code, not by URL"
        case .unexpectedResult(let target, let action, let expected, let actual):
            "mediator: action '\(action)' of target '\(target)' returned \(actual), not \(expected)"
        case .pluginUnavailable(let error):
            "mediator: \(error)"
        }
    }
}
