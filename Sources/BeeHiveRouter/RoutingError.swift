@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Why a routing call failed.
public enum RoutingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Interceptors redirected back to a URL already visited; `chain` lists the URLs in order, ending with the
    /// repeated one.
    case redirectLoop(chain: [String])
    /// Interceptors chained more redirects than ``RouterConfiguration/maximumRedirects``.
    case tooManyRedirects(chain: [String], limit: Int)
    /// A plugin of a plugin folder declares a route matching the URL, but could not be loaded at its first
    /// use; the error names the plugin file and says why.
    case pluginUnavailable(DeferredPluginError)

    public var description: String {
        switch self {
        case .redirectLoop(let chain):
            "interceptors redirect in a loop: \(chain.joined(separator: " -> ")); make one of them proceed or reject"
        case .tooManyRedirects(let chain, let limit):
            "interceptors redirected more than \(limit) times: \(chain.joined(separator: " -> ")); "
                + "shorten the chain or raise RouterConfiguration.maximumRedirects"
        case .pluginUnavailable(let error):
            error.description
        }
    }
}
