public import BeeHive
public import Hummingbird

/// A module that serves HTTP: it adds its routes, with Hummingbird's own types, under the one path it owns.
///
///     final class GreeterModule: HTTPModule {
///         static var httpPath: String { "/greeter" }
///         init() {}
///         func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
///             routes.get("hello") { _, _ in "hello" }          // GET /greeter/hello
///         }
///     }
///
/// `HiveHTTP` mounts the routes of every registered `HTTPModule` when the host has started, and those of a
/// plugin's modules when a first request loads the plugin. The module must be a class declared at the top
/// level of its Swift module, the form in which its name resolves to its type.
public protocol HTTPModule: Module {
    /// The path this module owns, such as `/greeter`: requests to it and below it go to this module's routes.
    static var httpPath: String { get }

    /// Adds the module's routes to `routes`, a group whose paths are relative to `httpPath`. Called once, after
    /// the module's setUp and init.
    func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>)
}
