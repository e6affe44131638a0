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

/// The order in which matching routes are tried: higher priority first, then registration order.
struct RouteRank: Sendable, Hashable {
    let priority: Int
    /// Increases with every expansion registered, so no two entries share a rank.
    let order: UInt64

    func precedes(_ other: RouteRank) -> Bool {
        priority != other.priority ? priority > other.priority : order < other.order
    }
}

/// One expansion of a definition, stored at the trie node where its pattern ends.
struct RouteEntry: Sendable {
    let rank: RouteRank
    let definition: RouteDefinition
    /// The names of the expansion's variables, in path order.
    let variableNames: [String]
}

/// Identifies one `addRoute` registration, for removing it later.
public struct RouteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let rawValue: UInt64

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "route #\(rawValue)" }
}

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
