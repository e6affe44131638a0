/// One expansion of a definition, stored at the trie node where its pattern ends.
struct RouteEntry: Sendable {
    let rank: RouteRank
    let definition: RouteDefinition
    /// Which expansion of the definition's pattern this is: its variable names are read from there, so that an
    /// entry holds one reference.
    let expansion: Int

    /// The entry as a walk hands it out. Trying a route then retains nothing: the entry stays in the trie, and
    /// so alive, for as long as the copy of the tables that the routing call found it in.
    var candidate: RouteCandidate {
        RouteCandidate(rank: rank, definition: Unmanaged.passUnretained(definition), expansion: expansion)
    }
}

/// A route entry found by a walk, valid while the trie that holds the entry is alive. Its fields are plain
/// values: reading one from the trie, keeping it in the merge heap and trying it copy no reference, where an
/// entry would retain and release its definition for every route tried.
struct RouteCandidate {
    let rank: RouteRank
    let definition: Unmanaged<RouteDefinition>
    let expansion: Int

    /// Runs the route's handler; the trie keeps the definition alive meanwhile.
    func handle(_ parameters: RouteParameters) -> Bool {
        definition._withUnsafeGuaranteedRef { $0.handler(parameters) }
    }

    var template: RouteTemplate { definition._withUnsafeGuaranteedRef { $0.template } }
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
