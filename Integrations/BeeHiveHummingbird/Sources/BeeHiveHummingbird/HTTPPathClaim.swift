public import BeeHive
import Hummingbird

/// The handler a plugin names in its route annotation to declare the HTTP path its modules serve, so that the
/// host knows the path from the plugin's ELF records before the plugin is loaded:
///
///     BeeHiveRouteScoped("/greeter/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)
///
/// The pattern is the module's `httpPath` followed by `/*`; the scheme is `HTTPPathClaim.scheme` for every
/// method, or that scheme followed by `+` and one method (`beehive-http+get`, `beehive-http+post`: GET, POST,
/// PUT, PATCH and DELETE), one claim per method, so that a request with another method answers 405 without
/// loading the plugin. Routing a request's path in that scheme through the hive loads the plugin (once), and
/// this handler only confirms the match: the request itself is answered by the plugin's `HTTPModule`.
public final class HTTPPathClaim: RouteHandler {
    /// The route scheme of HTTP path claims for every method.
    public static let scheme = "beehive-http"

    /// The methods a claim can name one by one, in the order an `Allow` header lists them.
    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool { true }

    /// What the claims of the hive's plugins say about a request, from the router alone (nothing is loaded).
    enum Verdict: Equatable {
        /// No plugin claims the path: the request goes on to the server's router.
        case unclaimed
        /// Answered without loading: HEAD or OPTIONS to a claimed path. `allow` lists the claimed methods
        /// when the claims name them.
        case answerWithoutLoading(allow: [HTTPRequest.Method]?)
        /// The path is claimed for other methods only.
        case methodNotAllowed(allow: [HTTPRequest.Method])
        /// Routing `url` through the hive loads the plugin that claims the request.
        case load(url: String)
    }

    static func verdict(forPath path: some StringProtocol, method: HTTPRequest.Method, router: BeeHive.Router) -> Verdict {
        let anyMethod = url(forPath: path, scheme: scheme)
        if router.canRoute(anyMethod) {
            return method == .head || method == .options ? .answerWithoutLoading(allow: nil) : .load(url: anyMethod)
        }
        let claimed = methods.filter { router.canRoute(url(forPath: path, method: $0)) }
        guard !claimed.isEmpty else { return .unclaimed }
        let allow = claimed.flatMap { $0 == .get ? [.get, .head] : [$0] } + [.options]
        if method == .options || (method == .head && claimed.contains(.get)) {
            return .answerWithoutLoading(allow: allow)
        }
        guard claimed.contains(method) else { return .methodNotAllowed(allow: allow) }
        return .load(url: url(forPath: path, method: method))
    }

    /// The hive URL that claims `path` (a request path such as `/greeter/hello`) for `method` alone.
    static func url(forPath path: some StringProtocol, method: HTTPRequest.Method) -> String {
        url(forPath: path, scheme: "\(scheme)+\(method.rawValue.lowercased())")
    }

    private static func url(forPath path: some StringProtocol, scheme: String) -> String {
        "\(scheme)://\(path.drop { $0 == "/" })"
    }
}
