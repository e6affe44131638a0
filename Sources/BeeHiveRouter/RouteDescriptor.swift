/// A registered route as the router reports it.
public struct RouteDescriptor: Sendable, Hashable, CustomStringConvertible {
    public let id: RouteID
    public let pattern: RoutePattern
    /// nil for the global table.
    public let scheme: String?
    public let priority: Int
    /// What handles the route: a closure, a ``RouteHandler`` type or the `Decodable` type a typed handler
    /// receives, by name.
    public let handler: String
    /// Where the route was registered: `file:line` of the `addRoute` call, or the annotation record's object.
    public let origin: String

    /// `handler` of a route whose handler is a closure, which has no type name.
    package static let closureHandler = "closure"

    public var description: String {
        "\(scheme.map { "\($0): " } ?? "")\(pattern.text) (priority \(priority), \(id))"
    }
}
