public import BeeHive

/// The handler a plugin names in its route annotation to declare the HTTP path its modules serve, so that the
/// host knows the path from the plugin's ELF records before the plugin is loaded:
///
///     BeeHiveRouteScoped("/greeter/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)
///
/// The pattern is the module's `httpPath` followed by `/*`; the scheme is `HTTPPathClaim.scheme`. Routing a
/// request's path in that scheme through the hive loads the plugin (once), and this handler only confirms the
/// match: the request itself is answered by the plugin's `HTTPModule`.
public final class HTTPPathClaim: RouteHandler {
    /// The route scheme of HTTP path claims.
    public static let scheme = "beehive-http"

    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool { true }

    /// The hive URL that claims `path` (a request path such as `/greeter/hello`).
    static func url(forPath path: some StringProtocol) -> String {
        "\(scheme)://\(path.drop { $0 == "/" })"
    }
}
