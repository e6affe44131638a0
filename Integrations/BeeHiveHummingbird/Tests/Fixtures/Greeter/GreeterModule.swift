import BeeHive
import BeeHiveHummingbird
import Foundation

/// The plugin's HTTP module, on-demand (see annotations.c): the first request to /greeter loads the plugin,
/// this module catches up on setUp and init, and its routes answer that request.
public final class GreeterModule: HTTPModule {
    public static var httpPath: String { "/greeter" }

    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        event("setUp Greeter.GreeterModule")
    }

    public func tearDown(_ context: ModuleContext) throws {
        event("tearDown Greeter.GreeterModule")
    }

    public func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get("hello") { request, _ in
            "hello \(request.uri.queryParameters["name"].map(String.init) ?? "world") from the greeter plugin"
        }
        // The address of Hummingbird's `Response` type as this plugin sees it: the host's answer to the same
        // question tells whether both use one copy of Hummingbird.
        routes.get("types") { _, _ in typeIdentity() }
    }
}

func typeIdentity() -> String {
    "\(ObjectIdentifier(Response.self).hashValue) \(ObjectIdentifier(Hummingbird.Router<BasicRequestContext>.self).hashValue)"
}

/// Hooks write a line to standard output for the tests, which read the host's output.
func event(_ text: String) {
    FileHandle.standardOutput.write(Data("event \(text)\n".utf8))
}
