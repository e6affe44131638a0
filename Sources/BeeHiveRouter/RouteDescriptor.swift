/// A registered route as the router reports it.
public struct RouteDescriptor: Sendable, Hashable, CustomStringConvertible {
    public let id: RouteID
    public let pattern: RoutePattern
    /// nil for the global table.
    public let scheme: String?
    public let priority: Int

    public var description: String {
        "\(scheme.map { "\($0): " } ?? "")\(pattern.text) (priority \(priority), \(id))"
    }
}
