/// One registered route: what `addRoute` was given. Its expansions live in the trie as ``RouteEntry`` values
/// that share this definition.
final class RouteDefinition: Sendable {
    /// Everything but the handler: what the parameters of a match and the route's descriptor keep.
    let template: RouteTemplate
    let handler: Router.Handler
    /// The rank order of the first expansion; expansion `i` has `firstOrder + i`.
    let firstOrder: UInt64

    init(
        id: RouteID, pattern: RoutePattern, scheme: String?, priority: Int, firstOrder: UInt64, handler: @escaping Router.Handler,
        handlerName: RouteHandlerName, origin: RouteOrigin
    ) {
        template = RouteTemplate(
            id: id, pattern: pattern, scheme: scheme, priority: priority, handlerName: handlerName, origin: origin)
        self.firstOrder = firstOrder
        self.handler = handler
    }

    var id: RouteID { template.id }
    var pattern: RoutePattern { template.pattern }
    /// nil for the global table.
    var scheme: String? { template.scheme }
    var priority: Int { template.priority }

    func rank(ofExpansion offset: Int) -> RouteRank {
        RouteRank(priority: priority, order: firstOrder + UInt64(offset))
    }

    var descriptor: RouteDescriptor { RouteDescriptor(template) }
}
