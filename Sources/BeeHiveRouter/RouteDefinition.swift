/// One registered route: what `addRoute` was given. Its expansions live in the trie as ``RouteEntry`` values
/// that share this definition.
final class RouteDefinition: Sendable {
    let id: RouteID
    let pattern: RoutePattern
    /// nil for the global table.
    let scheme: String?
    let priority: Int
    let handler: Router.Handler
    /// The rank order of the first expansion; expansion `i` has `firstOrder + i`.
    let firstOrder: UInt64
    let handlerDescription: String
    let origin: String

    init(
        id: RouteID, pattern: RoutePattern, scheme: String?, priority: Int, firstOrder: UInt64, handler: @escaping Router.Handler,
        handlerDescription: String, origin: String
    ) {
        self.id = id
        self.pattern = pattern
        self.scheme = scheme
        self.priority = priority
        self.firstOrder = firstOrder
        self.handler = handler
        self.handlerDescription = handlerDescription
        self.origin = origin
    }

    func rank(ofExpansion offset: Int) -> RouteRank {
        RouteRank(priority: priority, order: firstOrder + UInt64(offset))
    }

    var descriptor: RouteDescriptor { RouteDescriptor(self) }
}
