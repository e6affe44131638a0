#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Router {
    /// Whether some route matches the URL.
    public func canRoute(_ url: URL) -> Bool {
        canRoute(url.absoluteString)
    }

    /// The route a URL matches first, without running handlers or interceptors.
    public func match(_ url: URL, parameters: [String: any Sendable] = [:]) -> RouteMatch? {
        match(url.absoluteString, parameters: parameters)
    }

    /// Routes a URL given as a `URL`, like the `String` form.
    @discardableResult
    public func route(_ url: URL, parameters: [String: any Sendable] = [:]) throws(RoutingError) -> RouteResult {
        try route(url.absoluteString, parameters: parameters)
    }
}
