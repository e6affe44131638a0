import BeeHiveRouter
import Synchronization

/// Keeps what handlers received, from any thread.
final class Recorder: Sendable {
    private let matches = Mutex<[RouteParameters]>([])

    /// A handler that records its parameters and accepts the route.
    var handler: Router.Handler {
        { [self] parameters in
            matches.withLock { $0.append(parameters) }
            return true
        }
    }

    var last: RouteParameters? { matches.withLock { $0.last } }
    var count: Int { matches.withLock { $0.count } }

    func reset() { matches.withLock { $0.removeAll() } }
}

/// A router with JLRoutes' test conventions: `route` returns the parameters the handler saw, or nil when
/// nothing was routed.
struct Harness {
    let router = Router()
    let recorder = Recorder()

    var handler: Router.Handler { recorder.handler }

    func add(_ pattern: String, scheme: String? = nil, priority: Int = 0) throws {
        try router.addRoute(pattern, scheme: scheme, priority: priority, handler: handler)
    }

    func route(_ url: String, parameters: [String: any Sendable] = [:]) throws -> RouteParameters? {
        recorder.reset()
        let result = try router.route(url, parameters: parameters)
        guard result.isHandled else { return nil }
        return recorder.last
    }
}

extension RouteParameters {
    /// JLRoutes' `JLValidateParameterCount`: the keys besides pattern, URL and scheme.
    var userCount: Int { count - 3 }
    /// JLRoutes' `JLValidateParameterCountIncludingWildcard`.
    var userCountBesidesWildcard: Int { count - 4 }
}
