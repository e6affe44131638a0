public import BeeHive
public import Hummingbird
public import Logging
import Foundation

/// Serves the hive's HTTP modules from a Hummingbird router, and loads plugins on their first request.
///
///     let host = HiveHost()
///     let http = HiveHTTP(host: host)
///     let router = Router()
///     router.add(middleware: http)                     // before the host's own routes
///     router.get("/health") { _, _ in "ok" }
///     var app = Application(router: router)
///     app.addHive(http)                                 // the host runs in the app's ServiceGroup
///     try await app.runService()
///
/// A request goes to the `HTTPModule` whose path holds it. When none does but a plugin of the hive's plugin
/// folders claims the path (see `HTTPPathClaim`), the request loads that plugin, exactly once however many
/// requests arrive together, mounts its modules' routes once they have caught up on setUp and init, and is
/// then answered by them. HEAD and OPTIONS requests to a claimed path answer 204 without loading, and a method
/// the plugin's claims leave out answers 405 (see `HTTPPathClaim`). A plugin
/// that cannot load answers 503 with a problem body (`application/problem+json`) naming it. Other requests go
/// on to the router's own routes.
///
/// Handlers run inside `Hive.withInjection(_:)` of the host's hive, so `@Injected` services come from it.
public struct HiveHTTP<Context: RequestContext>: RouterMiddleware {
    let host: HiveHost
    let routes: MountedRoutes<Context>
    let rescan: PluginRescan
    let logger: Logger

    /// - Parameters:
    ///   - host: the host whose hive's modules serve HTTP.
    ///   - context: the request context of the application's router.
    ///   - pluginTrust: which plugin files a rescan accepts; pass the policy the host's folders were added with.
    ///   - logger: where loads, mounts and failures are reported; nothing by default.
    public init(
        host: HiveHost, context: Context.Type = BasicRequestContext.self, pluginTrust: PluginTrustPolicy = .strict,
        logger: Logger = Logger(label: "beehive.http", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.host = host
        self.logger = logger
        routes = MountedRoutes(hive: host.hive, logger: logger)
        rescan = PluginRescan(
            folders: PluginRescan.folders(fromEnvironment: ProcessInfo.processInfo.environment), trust: pluginTrust,
            logger: logger)
    }

    /// Mounts the routes of registered `HTTPModule`s not mounted yet; `addHive(_:)` calls it once the host has
    /// started. Call it after registering a module in code while the server runs.
    public func mountModules() async {
        await routes.mountModules()
    }

    /// Looks for plugins dropped into the folders of `BEEHIVE_PLUGIN_PATH` since the host started (or since the
    /// last rescan), loads them and mounts the routes of their HTTP modules; returns the paths of the plugins
    /// it loaded. The server keeps serving meanwhile. `addHive(_:)` also runs it on SIGHUP.
    ///
    /// Unlike the plugins indexed at start, a plugin found by a rescan is loaded now rather than on its first
    /// request (the hive indexes a folder once).
    @discardableResult
    public func rescanPluginFolders() async -> [String] {
        await routes.rescan(rescan)
    }

    /// Routes a path through the claims once before the server accepts connections: the hive adds the routes
    /// its deferred plugins declare at their first use, which then is not a request's.
    func prepareClaims() {
        _ = host.hive.router.canRoute(HTTPPathClaim.url(forPath: "/", method: .get))
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path[...]
        if let mount = routes.mount(for: path) {
            return try await respond(to: request, context: context, with: mount)
        }
        let url: String
        switch HTTPPathClaim.verdict(forPath: path, method: request.method, router: host.hive.router) {
        case .unclaimed:
            return try await next(request, context)
        case .answerWithoutLoading(let allow):
            return Response(status: .noContent, headers: allow.map(Self.allowHeader) ?? [:])
        case .methodNotAllowed(let allow):
            return Response(status: .methodNotAllowed, headers: Self.allowHeader(allow))
        case .load(let claim):
            url = claim
        }
        switch await routes.loadPlugin(claiming: url) {
        case .failed(let error):
            logger.error("a plugin claiming an HTTP path did not load", metadata: ["path": "\(path)", "error": "\(error)"])
            return PluginProblem(path: String(path), plugin: error.path, detail: error.description).response
        case .loaded:
            guard let mount = routes.mount(for: path) else {
                return PluginProblem(
                    path: String(path), plugin: nil,
                    detail: "a plugin claims \(path) but mounted no HTTPModule for it: give the plugin an HTTPModule whose httpPath holds this path"
                ).response
            }
            return try await respond(to: request, context: context, with: mount)
        }
    }

    private static func allowHeader(_ methods: [HTTPRequest.Method]) -> HTTPFields {
        [.allow: methods.map(\.rawValue).joined(separator: ", ")]
    }

    private func respond(
        to request: Request, context: Context, with mount: MountedRoutes<Context>.Mount
    ) async throws -> Response {
        try await host.hive.withInjection { try await mount.responder.respond(to: request, context: context) }
    }
}
