/// One registered route: what `addRoute` was given. Its expansions live in the trie as ``RouteEntry`` values
/// that share this definition.
final class RouteDefinition: Sendable {
    let id: RouteID
    /// The pattern and the scheme, apart from the handler: what the parameters of a match keep.
    let template: RouteTemplate
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
        template = RouteTemplate(pattern: pattern, scheme: scheme)
        self.priority = priority
        self.firstOrder = firstOrder
        self.handler = handler
        self.handlerDescription = handlerDescription
        self.origin = origin
    }

    var pattern: RoutePattern { template.pattern }
    /// nil for the global table.
    var scheme: String? { template.scheme }

    func rank(ofExpansion offset: Int) -> RouteRank {
        RouteRank(priority: priority, order: firstOrder + UInt64(offset))
    }

    var descriptor: RouteDescriptor { RouteDescriptor(self) }
}
