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
            let entry = RouteEntry(rank: definition.rank(ofExpansion: offset), definition: definition, variableNames: expansion.variableNames)
            trie.insert(entry, expansion: expansion)
        }
    }

    @discardableResult
    mutating func remove(_ id: RouteID) -> Bool {
        guard let definition = definitions.removeValue(forKey: id) else { return false }
        for (offset, expansion) in definition.pattern.expansions.enumerated() {
            trie.remove(definition.rank(ofExpansion: offset), expansion: expansion)
        }
        return true
    }

    mutating func removeAll() {
        trie = RouteTrie()
        definitions = [:]
    }

    /// The routes in the order they are tried: higher priority first, then registration order.
    var descriptors: [RouteDescriptor] {
        definitions.values.sorted { ($1.priority, $0.id) < ($0.priority, $1.id) }.map(\.descriptor)
    }
}
