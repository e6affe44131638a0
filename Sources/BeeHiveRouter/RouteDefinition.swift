/// One registered route: what `addRoute` was given. Its expansions live in the trie as ``RouteEntry`` values
/// that share this definition.
final class RouteDefinition: Sendable {
    let id: RouteID
    let pattern: RoutePattern
    /// nil for the global table.
    let scheme: String?
    let priority: Int
    let handler: Router.Handler

    init(id: RouteID, pattern: RoutePattern, scheme: String?, priority: Int, handler: @escaping Router.Handler) {
        self.id = id
        self.pattern = pattern
        self.scheme = scheme
        self.priority = priority
        self.handler = handler
    }

    var descriptor: RouteDescriptor {
        RouteDescriptor(id: id, pattern: pattern, scheme: scheme, priority: priority)
    }
}
