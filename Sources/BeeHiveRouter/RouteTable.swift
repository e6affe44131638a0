/// The routes of one scheme (or of the global table) with the scheme's options.
struct RouteTable: Sendable {
    private(set) var trie = RouteTrie()
    private(set) var definitions: [RouteID: RouteDefinition] = [:]
    /// JLRoutes' `shouldFallbackToGlobalRoutes`: try the global table when this one has no route for a URL.
    var fallsBackToGlobalRoutes = false
    var unmatchedHandler: Router.UnmatchedHandler?

    /// Stores every expansion of the definition, ranked in expansion order.
    mutating func add(_ definition: RouteDefinition) {
        definitions[definition.id] = definition
        for (offset, expansion) in definition.pattern.expansions.enumerated() {
            let entry = RouteEntry(rank: definition.rank(ofExpansion: offset), definition: definition, expansion: offset)
            trie.insert(entry, expansion: expansion)
        }
    }

    /// Removes the registration and returns it, for the caller to release once it has let go of its lock (its
    /// handler's deinit may call back into the router); nil when it is not registered.
    mutating func remove(_ id: RouteID) -> RouteDefinition? {
        guard let definition = definitions.removeValue(forKey: id) else { return nil }
        for (offset, expansion) in definition.pattern.expansions.enumerated() {
            trie.remove(definition.rank(ofExpansion: offset), expansion: expansion)
        }
        return definition
    }

    /// Removes every registration of the pattern text in one pass over the lists it ends in; returns them, as
    /// `remove(_:)` does.
    mutating func removeDefinitions(withPattern text: String) -> [RouteDefinition] {
        let removed = definitions.values.filter { $0.pattern.text == text }
        guard !removed.isEmpty else { return [] }
        let ids = Set(removed.map(\.id))
        for id in ids { definitions[id] = nil }
        // Registrations of one text share their expansions unless they were read with different options.
        for pattern in Set(removed.map(\.pattern)) {
            for expansion in pattern.expansions {
                trie.removeAll(expansion: expansion) { ids.contains($0.definition.id) }
            }
        }
        return removed
    }

    /// Removes every registration and returns them, as `remove(_:)` does.
    mutating func removeAll() -> [RouteDefinition] {
        defer {
            trie = RouteTrie()
            definitions = [:]
        }
        return Array(definitions.values)
    }

    /// The routes in the order they are tried: higher priority first, then registration order.
    var descriptors: [RouteDescriptor] {
        definitions.values.sorted { ($1.priority, $0.id) < ($0.priority, $1.id) }.map(\.descriptor)
    }
}
