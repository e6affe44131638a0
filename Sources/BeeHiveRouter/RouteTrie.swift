/// The routes of one table, indexed by their components so that matching costs what the URL's depth and the
/// patterns' shape cost, not what the number of routes costs.
///
/// Nodes live in one array and refer to each other by index: a copy of the trie (a routing snapshot) is a
/// single retain, and registering routes while no snapshot is alive mutates the nodes in place.
///
/// Matching explores every branch that fits the URL (a literal child, then the variable child, then wildcard
/// routes), so a literal that leads nowhere falls back to a variable at the same depth: with `/:provider` and
/// `/google/callback` registered, `/google` matches `/:provider` (RoutingKit's trie fails it, vapor/vapor#3213).
/// Among every route that fits, it picks the best ranked one, or the best one ranked after a given rank when
/// the previous handler declined.
struct RouteTrie: Sendable {
    private struct Node: Sendable {
        var literals = LiteralTable()
        var variable: Int32 = -1
        var fragment: Int32 = -1
        /// Routes whose pattern ends here, best rank first.
        var routes: [RouteEntry] = []
        /// Routes whose pattern ends here with `*`, best rank first.
        var wildcardRoutes: [RouteEntry] = []

        var isEmpty: Bool {
            literals.isEmpty && variable < 0 && fragment < 0 && routes.isEmpty && wildcardRoutes.isEmpty
        }
    }

    private enum Edge {
        case literal(String)
        case variable
        case fragment
    }

    private var nodes: [Node] = [Node()]
    private var freeNodes: [Int32] = []

    mutating func insert(_ entry: RouteEntry, expansion: RoutePattern.Expansion) {
        var current: Int32 = 0
        for segment in expansion.segments {
            switch segment {
            case .literal(let text): current = child(of: current, via: .literal(text))
            case .variable: current = child(of: current, via: .variable)
            case .fragmentMarker: current = child(of: current, via: .fragment)
            case .wildcard:
                Self.insert(entry, into: &nodes[Int(current)].wildcardRoutes)
                return
            }
        }
        Self.insert(entry, into: &nodes[Int(current)].routes)
    }

    /// Removes the entries of a definition stored for this expansion and frees the nodes left empty.
    mutating func remove(_ id: RouteID, expansion: RoutePattern.Expansion) {
        var path: [(parent: Int32, edge: Edge)] = []
        var current: Int32 = 0
        var endsWithWildcard = false
        for segment in expansion.segments {
            let edge: Edge
            switch segment {
            case .literal(let text): edge = .literal(text)
            case .variable: edge = .variable
            case .fragmentMarker: edge = .fragment
            case .wildcard:
                endsWithWildcard = true
                continue
            }
            guard let next = existingChild(of: current, via: edge) else { return }
            path.append((current, edge))
            current = next
        }
        if endsWithWildcard {
            nodes[Int(current)].wildcardRoutes.removeAll { $0.definition.id == id }
        } else {
            nodes[Int(current)].routes.removeAll { $0.definition.id == id }
        }
        while let (parent, edge) = path.last, nodes[Int(current)].isEmpty {
            switch edge {
            case .literal(let text): nodes[Int(parent)].literals.remove(text)
            case .variable: nodes[Int(parent)].variable = -1
            case .fragment: nodes[Int(parent)].fragment = -1
            }
            nodes[Int(current)] = Node()
            freeNodes.append(current)
            path.removeLast()
            current = parent
        }
    }

    /// Calls `body` with the best ranked route that fits the URL (or, when `bound` is given, the best ranked
    /// after `bound`), the index of the URL component each of its variables captured, and the first component
    /// its wildcard matched. Returns nil when no route fits.
    func withBestMatch<Result>(
        _ url: RouteURL, after bound: RouteRank?,
        _ body: (_ entry: RouteEntry, _ captures: UnsafeBufferPointer<Int>, _ wildcardStart: Int?) -> Result
    ) -> Result? {
        let count = url.components.count
        return url.withBytes { bytes in
            url.components.withUnsafeBufferPointer { components in
                nodes.withUnsafeBufferPointer { nodes in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count + 1) { buffer in
                        var search = Search(
                            nodes: nodes, bytes: bytes, components: components, bound: bound,
                            captures: buffer.baseAddress!, best: buffer.baseAddress! + count)
                        search.visit(0, index: 0, captured: 0)
                        guard let entry = search.bestEntry else { return nil }
                        let captures = UnsafeBufferPointer(start: search.best, count: entry.variableNames.count)
                        return body(entry, captures, search.bestWildcardStart)
                    }
                }
            }
        }
    }

    /// Whether some route fits the URL.
    func matches(_ url: RouteURL) -> Bool {
        withBestMatch(url, after: nil) { _, _, _ in true } ?? false
    }

    /// The depth-first walk over every branch that fits the URL. Captured component indices go to a scratch
    /// buffer and the best candidate's are copied aside, so the walk allocates nothing unless a component
    /// needs percent-decoding.
    private struct Search {
        let nodes: UnsafeBufferPointer<Node>
        let bytes: UnsafeBufferPointer<UInt8>
        let components: UnsafeBufferPointer<RouteURL.Component>
        let bound: RouteRank?
        let captures: UnsafeMutablePointer<Int>
        let best: UnsafeMutablePointer<Int>
        var bestEntry: RouteEntry?
        var bestWildcardStart: Int?

        init(
            nodes: UnsafeBufferPointer<Node>, bytes: UnsafeBufferPointer<UInt8>,
            components: UnsafeBufferPointer<RouteURL.Component>, bound: RouteRank?, captures: UnsafeMutablePointer<Int>,
            best: UnsafeMutablePointer<Int>
        ) {
            self.nodes = nodes
            self.bytes = bytes
            self.components = components
            self.bound = bound
            self.captures = captures
            self.best = best
        }

        mutating func visit(_ node: Int32, index: Int, captured: Int) {
            let node = Int(node)
            if !nodes[node].wildcardRoutes.isEmpty {
                consider(nodes[node].wildcardRoutes, captured: captured, wildcardStart: index)
            }
            guard index < components.count else {
                if !nodes[node].routes.isEmpty { consider(nodes[node].routes, captured: captured, wildcardStart: nil) }
                return
            }
            let component = components[index]
            if component.isFragmentMarker {
                let fragment = nodes[node].fragment
                if fragment >= 0 { visit(fragment, index: index + 1, captured: captured) }
                return
            }
            if !nodes[node].literals.isEmpty, let child = literalChild(of: node, for: component) {
                visit(child, index: index + 1, captured: captured)
            }
            let variable = nodes[node].variable
            if variable >= 0 {
                captures[captured] = index
                visit(variable, index: index + 1, captured: captured + 1)
            }
        }

        /// Literals are stored decoded, so a component with escapes is decoded before the lookup.
        private func literalChild(of node: Int, for component: RouteURL.Component) -> Int32? {
            let raw = UnsafeBufferPointer(rebasing: bytes[component.start..<component.end])
            guard component.hasEscape else { return nodes[node].literals.child(for: raw) }
            return nodes[node].literals.child(for: PercentDecoding.decode(raw, plusAsSpace: false))
        }

        private mutating func consider(_ entries: [RouteEntry], captured: Int, wildcardStart: Int?) {
            guard let entry = entries.first(where: { bound?.precedes($0.rank) ?? true }) else { return }
            if let bestEntry, !entry.rank.precedes(bestEntry.rank) { return }
            bestEntry = entry
            bestWildcardStart = wildcardStart
            best.update(from: captures, count: captured)
        }
    }

    private mutating func child(of parent: Int32, via edge: Edge) -> Int32 {
        if let existing = existingChild(of: parent, via: edge) { return existing }
        let index: Int32
        if let free = freeNodes.popLast() {
            index = free
        } else {
            index = Int32(nodes.count)
            nodes.append(Node())
        }
        switch edge {
        case .literal(let text): nodes[Int(parent)].literals.insert(text, child: index)
        case .variable: nodes[Int(parent)].variable = index
        case .fragment: nodes[Int(parent)].fragment = index
        }
        return index
    }

    private func existingChild(of parent: Int32, via edge: Edge) -> Int32? {
        switch edge {
        case .literal(let text): return nodes[Int(parent)].literals.child(for: text)
        case .variable: return nodes[Int(parent)].variable >= 0 ? nodes[Int(parent)].variable : nil
        case .fragment: return nodes[Int(parent)].fragment >= 0 ? nodes[Int(parent)].fragment : nil
        }
    }

    private static func insert(_ entry: RouteEntry, into entries: inout [RouteEntry]) {
        let position = entries.firstIndex { entry.rank.precedes($0.rank) } ?? entries.endIndex
        entries.insert(entry, at: position)
    }
}
