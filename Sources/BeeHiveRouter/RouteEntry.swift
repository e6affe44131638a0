/// One expansion of a definition, stored at the trie node where its pattern ends.
struct RouteEntry: Sendable {
    let rank: RouteRank
    let definition: RouteDefinition
    /// Which expansion of the definition's pattern this is: its variable names are read from there, so that an
    /// entry holds one reference.
    let expansion: Int
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
