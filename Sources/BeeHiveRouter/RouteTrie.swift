/// The routes of one table, indexed by their components so that matching costs what the URL's depth and the
/// patterns' shape cost, not what the number of routes costs.
///
/// Nodes live in one array and refer to each other by index: a copy of the trie (a routing snapshot) is a
/// single retain, and registering routes while no snapshot is alive mutates the nodes in place.
///
/// Matching explores every branch that fits the URL (a literal child, then the variable child, then wildcard
/// routes), so a literal that leads nowhere falls back to a variable at the same depth: with `/:provider` and
/// `/google/callback` registered, `/google` matches `/:provider` (RoutingKit's trie fails it, vapor/vapor#3213).
/// One walk finds the best ranked route that fits; when its handler declines, one more walk lists every route
/// that fits, best first, so any number of declining handlers costs linear time.
struct RouteTrie: Sendable {
    private struct Node: Sendable {
        var literals = LiteralTable()
        var variable: Int32 = -1
        var fragment: Int32 = -1
        /// Routes whose pattern ends here.
        var routes = RouteList()
        /// Routes whose pattern ends here with `*`.
        var wildcardRoutes = RouteList()

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
                nodes[Int(current)].wildcardRoutes.append(entry)
                return
            }
        }
        nodes[Int(current)].routes.append(entry)
    }

    /// Removes the entry of this rank stored for this expansion and frees the nodes left empty.
    mutating func remove(_ rank: RouteRank, expansion: RoutePattern.Expansion) {
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
            nodes[Int(current)].wildcardRoutes.remove(rank)
        } else {
            nodes[Int(current)].routes.remove(rank)
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

    /// Calls `body` with the best ranked route that fits the URL, the index of the URL component each of its
    /// variables captured, and the first component its wildcard matched. Returns nil when no route fits.
    func withBestMatch<Result>(
        _ url: RouteURL, _ body: (_ entry: RouteEntry, _ captures: UnsafeBufferPointer<Int>, _ wildcardStart: Int?) -> Result
    ) -> Result? {
        let count = url.components.count
        return Self.withScratch(of: Int.self, capacity: count + 1) { best in
            var bestEntry: RouteEntry?
            var bestWildcardStart: Int?
            walk(url) { routes, captures, wildcardStart in
                guard let entry = routes.first else { return }
                if let bestEntry, !entry.rank.precedes(bestEntry.rank) { return }
                bestEntry = entry
                bestWildcardStart = wildcardStart
                best.update(from: captures.baseAddress!, count: captures.count)
            }
            guard let bestEntry else { return nil }
            return body(bestEntry, UnsafeBufferPointer(start: best, count: bestEntry.variableNames.count), bestWildcardStart)
        }
    }

    /// Whether some route fits the URL.
    func matches(_ url: RouteURL) -> Bool {
        var found = false
        walk(url) { routes, _, _ in found = true }
        return found
    }

    /// Every route that fits the URL, best ranked first, from one walk.
    func allMatches(_ url: RouteURL) -> Matches {
        var matches = Matches()
        walk(url) { routes, captures, wildcardStart in
            let captureStart = matches.captures.count
            matches.captures.append(contentsOf: captures)
            routes.forEach { entry in
                matches.candidates.append(Matches.Candidate(entry: entry, captureStart: captureStart, wildcardStart: wildcardStart))
            }
        }
        matches.candidates.sort { $0.entry.rank.precedes($1.entry.rank) }
        return matches
    }

    /// The routes that fit a URL, with the components their variables captured.
    struct Matches {
        struct Candidate {
            let entry: RouteEntry
            /// Where the candidate's capture indices start in ``captures``.
            let captureStart: Int
            let wildcardStart: Int?
        }

        /// Best ranked first.
        var candidates: [Candidate] = []
        var captures: [Int] = []

        func captures(of candidate: Candidate) -> ArraySlice<Int> {
            captures[candidate.captureStart..<(candidate.captureStart + candidate.entry.variableNames.count)]
        }
    }

    /// One step of the walk: a node to visit with the URL component it faces. A step reached through a variable
    /// edge records that it captured the previous component when it is taken off the stack, since a sibling
    /// explored earlier may have written that slot.
    private struct Step {
        var node: Int32
        var index: Int32
        var captured: Int32
        var viaVariable: Bool
    }

    /// Visits every node the URL reaches (a literal child and the variable child at each depth, the fragment
    /// child at the fragment marker) and calls `visit` with each route list that fits: the wildcard routes of
    /// every node on the way and the routes of the nodes where the URL ends. An explicit stack, at most two steps
    /// per URL component, replaces recursion, so a URL of any depth is walked in constant call-stack space. The
    /// walk allocates nothing for URLs of up to 128 components unless a component needs percent-decoding.
    private func walk(
        _ url: RouteURL, _ visit: (_ routes: RouteList, _ captures: UnsafeBufferPointer<Int>, _ wildcardStart: Int?) -> Void
    ) {
        let count = url.components.count
        url.withBytes { bytes in
            url.components.withUnsafeBufferPointer { components in
                nodes.withUnsafeBufferPointer { nodes in
                    Self.withScratch(of: Int.self, capacity: count + 1) { captures in
                        Self.withScratch(of: Step.self, capacity: 2 * count + 2) { stack in
                            var depth = 1
                            stack[0] = Step(node: 0, index: 0, captured: 0, viaVariable: false)
                            while depth > 0 {
                                depth -= 1
                                let step = stack[depth]
                                let index = Int(step.index)
                                let captured = Int(step.captured)
                                if step.viaVariable { captures[captured - 1] = index - 1 }
                                let node = Int(step.node)
                                if !nodes[node].wildcardRoutes.isEmpty {
                                    visit(nodes[node].wildcardRoutes, UnsafeBufferPointer(start: captures, count: captured), index)
                                }
                                guard index < count else {
                                    if !nodes[node].routes.isEmpty {
                                        visit(nodes[node].routes, UnsafeBufferPointer(start: captures, count: captured), nil)
                                    }
                                    continue
                                }
                                let component = components[index]
                                if component.isFragmentMarker {
                                    let fragment = nodes[node].fragment
                                    if fragment >= 0 {
                                        stack[depth] = Step(node: fragment, index: step.index + 1, captured: step.captured, viaVariable: false)
                                        depth += 1
                                    }
                                    continue
                                }
                                let variable = nodes[node].variable
                                if variable >= 0 {
                                    stack[depth] = Step(node: variable, index: step.index + 1, captured: step.captured + 1, viaVariable: true)
                                    depth += 1
                                }
                                if !nodes[node].literals.isEmpty,
                                    let child = Self.literalChild(of: nodes[node], for: component, in: bytes)
                                {
                                    stack[depth] = Step(node: child, index: step.index + 1, captured: step.captured, viaVariable: false)
                                    depth += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Literals are stored decoded, so a component with escapes is decoded before the lookup.
    private static func literalChild(of node: Node, for component: RouteURL.Component, in bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let raw = UnsafeBufferPointer(rebasing: bytes[component.start..<component.end])
        guard component.hasEscape else { return node.literals.child(for: raw) }
        return node.literals.child(for: PercentDecoding.decode(raw, plusAsSpace: false))
    }

    /// Scratch memory for one walk: on the stack when small, on the heap when the URL is deep.
    private static func withScratch<Element, Result>(
        of type: Element.Type, capacity: Int, _ body: (UnsafeMutablePointer<Element>) -> Result
    ) -> Result {
        if capacity <= 128 {
            return withUnsafeTemporaryAllocation(of: Element.self, capacity: capacity) { body($0.baseAddress!) }
        }
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        defer { pointer.deallocate() }
        return body(pointer)
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
}
