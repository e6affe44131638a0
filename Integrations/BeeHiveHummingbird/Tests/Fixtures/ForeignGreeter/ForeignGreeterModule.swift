import BeeHive
import BeeHiveHummingbird
import Hummingbird

/// A plugin built the way the README warns against: its package depends on Hummingbird directly as well as on
/// BeeHiveHummingbird, so SwiftPM links a copy of Hummingbird and SwiftNIO into it. A host refuses it before
/// loading it; were it loaded, its routes would be built from its own copy of Hummingbird's types.
public final class ForeignGreeterModule: HTTPModule {
    public static var httpPath: String { "/foreign" }

    public init() {}

    public func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get("hello") { _, _ in "hello from a plugin with its own Hummingbird" }
    }
}
