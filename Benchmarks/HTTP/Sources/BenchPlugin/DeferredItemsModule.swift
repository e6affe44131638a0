import BeeHive
import BeeHiveHummingbird

/// The plugin's module: on-demand, so the first request under /deferred loads the plugin.
public final class DeferredItemsModule: HTTPModule {
    public static var httpPath: String { "/deferred" }

    public init() {}

    public func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get("target") { _, _ in "hello" }
    }
}
