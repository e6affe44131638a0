/// A registered route apart from its handler: what a match reads its values from (pattern and scheme) and what a
/// ``RouteDescriptor`` reports. Parameters and descriptors keep this, never the ``RouteDefinition``, so an app that
/// stores the parameters, match or listing it was given in an object its handler captures makes no reference cycle
/// through the handler's closure.
final class RouteTemplate: Sendable {
    let id: RouteID
    let pattern: RoutePattern
    /// nil for the global table.
    let scheme: String?
    let priority: Int
    let handlerName: RouteHandlerName
    let origin: RouteOrigin

    init(id: RouteID, pattern: RoutePattern, scheme: String?, priority: Int, handlerName: RouteHandlerName, origin: RouteOrigin) {
        self.id = id
        self.pattern = pattern
        self.scheme = scheme
        self.priority = priority
        self.handlerName = handlerName
        self.origin = origin
    }
}
