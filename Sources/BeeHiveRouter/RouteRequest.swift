/// A URL on its way through the router, as interceptors and the unmatched-URL handler see it.
public struct RouteRequest: Sendable {
    /// The URL being routed, as given (after redirects, the URL redirected to).
    public let url: String
    /// The URL's scheme as written; nil for a relative URL.
    public let scheme: String?
    /// The components the routes are matched against, percent-decoded: the host when it counts as a path
    /// component, the path, then `#` and the fragment path when there is one.
    public let pathComponents: [String]
    /// The parameters the caller passed.
    public let parameters: RouteParameters
    /// The URLs that redirected to this one, first first.
    public let redirects: [String]
}
