/// A registered route as the router reports it.
///
/// It refers to the router's own record of the route, so that handing one out with every match costs one
/// retain rather than a copy of each field; that record leaves out the handler, so a descriptor kept by an object
/// the handler captures does not keep the handler alive.
public struct RouteDescriptor: Sendable, Hashable, CustomStringConvertible {
    private let template: RouteTemplate

    init(_ template: RouteTemplate) {
        self.template = template
    }

    public var id: RouteID { template.id }
    public var pattern: RoutePattern { template.pattern }
    /// nil for the global table.
    public var scheme: String? { template.scheme }
    public var priority: Int { template.priority }
    /// What handles the route: a closure, a ``RouteHandler`` type or the `Decodable` type a typed handler
    /// receives, by name.
    public var handler: String { template.handlerName.description }
    /// Where the route was registered: `file:line` of the `addRoute` call, or the annotation record's object.
    public var origin: String { template.origin.description }

    /// `handler` of a route whose handler is a closure, which has no type name.
    package static let closureHandler = "closure"

    public static func == (lhs: RouteDescriptor, rhs: RouteDescriptor) -> Bool {
        lhs.template === rhs.template
            || (lhs.id == rhs.id && lhs.pattern == rhs.pattern && lhs.scheme == rhs.scheme && lhs.priority == rhs.priority
                && lhs.handler == rhs.handler && lhs.origin == rhs.origin)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(pattern)
        hasher.combine(scheme)
        hasher.combine(priority)
        hasher.combine(handler)
        hasher.combine(origin)
    }

    public var description: String {
        "\(scheme.map { "\($0): " } ?? "")\(pattern.text) (priority \(priority), \(id))"
    }
}
