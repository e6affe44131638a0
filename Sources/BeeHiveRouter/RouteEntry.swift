/// One expansion of a definition, stored at the trie node where its pattern ends.
struct RouteEntry: Sendable {
    let rank: RouteRank
    let definition: RouteDefinition
    /// The names of the expansion's variables, in path order.
    let variableNames: [String]
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
