/// The routes of one table, indexed by their components so that matching costs what the URL's depth and the
/// patterns' shape cost, not what the number of routes costs.
///
/// Nodes live in one array and refer to each other by index, and the route lists of the nodes where patterns end
/// live in a second: registering routes while no copy of the tables holds the trie mutates both in place. A node
/// is 32 bytes, two to a cache line, holding only what the walk reads; a list is read only where the walk ends.
///
/// Matching explores every branch that fits the URL (a literal child, then the variable child, then wildcard
/// routes), so a literal that leads nowhere falls back to a variable at the same depth: with `/:provider` and
/// `/google/callback` registered, `/google` matches `/:provider` (RoutingKit's trie fails it, vapor/vapor#3213).
/// One walk lists every route that fits, best first, so any number of declining handlers costs one walk.
struct RouteTrie: Sendable {
    fileprivate struct Node: Sendable {
        var literals = LiteralTable()
        var variable: Int32 = -1
        var fragment: Int32 = -1
        /// The list of the routes whose pattern ends here, or -1.
        var routes: Int32 = -1
        /// The list of the routes whose pattern ends here with `*`, or -1.
        var wildcardRoutes: Int32 = -1

        var isEmpty: Bool {
            literals.isEmpty && variable < 0 && fragment < 0 && routes < 0 && wildcardRoutes < 0
        }
    }

    private enum Edge {
        case literal(String)
        case variable
        case fragment
    }

    private var nodes: [Node] = [Node()]
    /// The first node freed by a removal, or -1. Freed nodes are chained through their `variable` field.
    private var firstFreeNode: Int32 = -1
    private var lists: [RouteList] = []
    /// Lists emptied by removals, for reuse.
    private var freeLists: [Int32] = []

    mutating func insert(_ entry: RouteEntry, expansion: RoutePattern.Expansion) {
        var current: Int32 = 0
        for segment in expansion.segments {
            switch segment {
            case .literal(let text): current = child(of: current, via: .literal(text))
            case .variable: current = child(of: current, via: .variable)
            case .fragmentMarker: current = child(of: current, via: .fragment)
            case .wildcard:
                nodes[Int(current)].wildcardRoutes = append(entry, to: nodes[Int(current)].wildcardRoutes)
                return
            }
        }
        nodes[Int(current)].routes = append(entry, to: nodes[Int(current)].routes)
    }

    /// Appends to the list `list` names, making one when it is -1; returns the list's index.
    private mutating func append(_ entry: RouteEntry, to list: Int32) -> Int32 {
        var list = list
        if list < 0 {
            if let free = freeLists.popLast() {
                list = free
            } else {
                list = Int32(lists.count)
                lists.append(RouteList())
            }
        }
        lists[Int(list)].append(entry)
        return list
    }

    /// Removes the entry of this rank stored for this expansion and frees the nodes left empty.
    mutating func remove(_ rank: RouteRank, expansion: RoutePattern.Expansion) {
        removeEntries(expansion: expansion) { $0.remove(rank) }
    }

    /// Removes the entries stored for this expansion that `shouldRemove` picks, in one pass over their list.
    mutating func removeAll(expansion: RoutePattern.Expansion, where shouldRemove: (RouteEntry) -> Bool) {
        removeEntries(expansion: expansion) { $0.removeAll(where: shouldRemove) }
    }

    /// Applies `change` to the list where the expansion ends and frees the nodes left empty.
    private mutating func removeEntries(expansion: RoutePattern.Expansion, _ change: (inout RouteList) -> Void) {
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
        let list = endsWithWildcard ? nodes[Int(current)].wildcardRoutes : nodes[Int(current)].routes
        guard list >= 0 else { return }
        change(&lists[Int(list)])
        if lists[Int(list)].isEmpty {
            freeLists.append(list)
            if endsWithWildcard { nodes[Int(current)].wildcardRoutes = -1 } else { nodes[Int(current)].routes = -1 }
        }
        while let (parent, edge) = path.last, nodes[Int(current)].isEmpty {
            switch edge {
            case .literal(let text): nodes[Int(parent)].literals.remove(text)
            case .variable: nodes[Int(parent)].variable = -1
            case .fragment: nodes[Int(parent)].fragment = -1
            }
            nodes[Int(current)] = Node()
            nodes[Int(current)].variable = firstFreeNode
            firstFreeNode = current
            path.removeLast()
            current = parent
        }
    }

    /// The routes that fit the URL read from `text`, best ranked first, read one at a time with
    /// ``Candidates/next(in:)``. One walk finds the route lists that fit; a URL that one list fits, the common
    /// case, allocates nothing and releases nothing.
    ///
    /// Nothing about the URL is recorded for a route: every pattern component but `*` matches exactly one URL
    /// component, so the pattern alone says which components its variables and its wildcard took. The candidates
    /// are read without the URL, so the router can move the URL's text into the match.
    func candidates(for url: inout RouteURL.ComponentBuffer, in text: String) -> Candidates {
        var first: Hit?
        var heap: CandidateHeap?
        walk(&url, in: text) { list in
            let hit = Hit(list: list)
            guard let only = first else {
                first = hit
                return
            }
            if heap == nil { heap = CandidateHeap(first: only) }
            heap!.append(hit)
        }
        guard let heap else { return .one(first, RouteList.Position()) }
        lists.withUnsafeBufferPointer { heap.prepare(lists: $0.baseAddress!) }
        return .several(heap)
    }

    /// Whether some route fits the URL read from `text`.
    func matches(_ url: inout RouteURL.ComponentBuffer, in text: String) -> Bool {
        var found = false
        walk(&url, in: text) { _ in found = true }
        return found
    }

    /// A route list the walk found.
    struct Hit {
        /// The list's index, so that keeping it retains nothing.
        let list: Int32
    }

    /// Reads the routes of a walk's hits in rank order. Each hit's list is already in rank order; a heap merges
    /// them, so the routes come out in rank order without sorting them all, and stopping early skips the rest.
    /// Pulled by the router rather than pushed into a closure: the parameters a closure captures are copied for
    /// every handler call.
    enum Candidates {
        /// The one list found, if any, and where its reading stands. No reference: dropping the cursor releases
        /// nothing.
        case one(Hit?, RouteList.Position)
        /// Several lists, merged.
        case several(CandidateHeap)

        /// The next route, or nil when every route was read. `trie` is the trie the hits came from.
        @inline(__always)
        mutating func next(in trie: borrowing RouteTrie) -> RouteCandidate? {
            switch self {
            case .one(let hit, var position):
                guard let hit else { return nil }
                // Through a pointer, so the list is read in place, not retained.
                let candidate = trie.lists.withUnsafeBufferPointer { lists in
                    (lists.baseAddress! + Int(hit.list)).pointee.next(from: &position)
                }
                self = .one(hit, position)
                return candidate
            case .several(let heap):
                return trie.lists.withUnsafeBufferPointer { heap.popFirst(lists: $0.baseAddress!) }
            }
        }
    }

    /// The next entry of each hit, best ranked on top. The heap holds hit indices and compares copied ranks, so
    /// reordering it moves and retains nothing. An object, so that the cursor holding it stays three words: only
    /// a URL that several lists fit, which allocates its hits anyway, makes one.
    final class CandidateHeap {
        @exclusivity(unchecked) private var hits: [Hit]
        /// Per hit: its list's next entry (nil once the list is read out), that entry's rank, and where the
        /// reading of its list stands. One routing call owns the heap, so the runtime's exclusivity checks on an
        /// object's properties, which doubled the time of 4,096 declining handlers, are left out.
        @exclusivity(unchecked) private var entries: [RouteCandidate?] = []
        @exclusivity(unchecked) private var ranks: [RouteRank] = []
        @exclusivity(unchecked) private var positions: [RouteList.Position] = []
        @exclusivity(unchecked) private var heap: [Int] = []

        init(first: Hit) {
            hits = [first]
        }

        func append(_ hit: Hit) {
            hits.append(hit)
        }

        /// Reads the first entry of every hit and orders them. `lists` are the trie's.
        fileprivate func prepare(lists: UnsafePointer<RouteList>) {
            entries.reserveCapacity(hits.count)
            ranks.reserveCapacity(hits.count)
            positions.reserveCapacity(hits.count)
            heap.reserveCapacity(hits.count)
            for (index, hit) in hits.enumerated() {
                var position = RouteList.Position()
                let entry = lists[Int(hit.list)].next(from: &position)
                entries.append(entry)
                ranks.append(entry?.rank ?? RouteRank(priority: 0, order: 0))
                positions.append(position)
                if entry != nil { heap.append(index) }
            }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        /// The best ranked entry left; its list's next entry takes its place. `lists` are the trie's.
        fileprivate func popFirst(lists: UnsafePointer<RouteList>) -> RouteCandidate? {
            guard let top = heap.first, let entry = entries[top] else { return nil }
            let hit = hits[top]
            if let next = lists[Int(hit.list)].next(from: &positions[top]) {
                entries[top] = next
                ranks[top] = next.rank
            } else {
                entries[top] = nil
                let last = heap.removeLast()
                if heap.isEmpty { return entry }
                heap[0] = last
            }
            siftDown(0)
            return entry
        }

        private func siftDown(_ start: Int) {
            var parent = start
            while true {
                var best = parent
                let left = 2 * parent + 1
                if left < heap.count && ranks[heap[left]].precedes(ranks[heap[best]]) { best = left }
                if left + 1 < heap.count && ranks[heap[left + 1]].precedes(ranks[heap[best]]) { best = left + 1 }
                if best == parent { return }
                heap.swapAt(parent, best)
                parent = best
            }
        }
    }

    /// One step of the walk: a node to visit with the URL component it faces.
    private struct Step {
        var node: Int32
        var index: Int32
    }

    /// Visits every node the URL reaches (a literal child and the variable child at each depth, the fragment
    /// child at the fragment marker) and calls `visit` with each route list that fits: the wildcard routes of every
    /// node on the way (past the fragment marker, when the URL has one) and the routes of the nodes where the URL
    /// ends. An explicit stack of the variable children still to try, at most one per URL component, replaces
    /// recursion, so a URL of any depth is walked in constant call-stack space. The walk allocates nothing for
    /// URLs of up to 127 components unless a component needs decoding.
    private func walk(_ url: inout RouteURL.ComponentBuffer, in text: String, _ visit: (_ list: Int32) -> Void) {
        let count = url.count
        url.withComponents { components in
            RouteURL.withBytes(of: text) { bytes in
                nodes.withUnsafeBufferPointer { nodes in
                    // The fragment marker's index, or -1: a URL holds at most one. A loop: `firstIndex(where:)`
                    // left its closure out of line.
                    var marker = -1
                    for position in 0..<count where components[position].isFragmentMarker {
                        marker = position
                        break
                    }
                    // At most one step waits per URL component: the variable child not yet taken.
                    Self.withScratch(of: Step.self, capacity: count + 1) { stack in
                        var depth = 0
                        var step = Step(node: 0, index: 0)
                        while true {
                            let index = Int(step.index)
                            // Through a pointer, so reading a node's fields retains nothing.
                            let node = nodes.baseAddress! + Int(step.node)
                            // A `*` takes the rest of the path or of the fragment path, never the fragment marker.
                            if node.pointee.wildcardRoutes >= 0 && index > marker { visit(node.pointee.wildcardRoutes) }
                            // The child the walk goes on with; a literal child first, its variable sibling waits.
                            // Kept in a register rather than pushed and popped at once, which made every level
                            // wait on a store.
                            var next: Int32 = -1
                            if index >= count {
                                if node.pointee.routes >= 0 { visit(node.pointee.routes) }
                            } else {
                                let component = components[index]
                                if component.isFragmentMarker {
                                    next = node.pointee.fragment
                                } else {
                                    next = node.pointee.variable
                                    if !node.pointee.literals.isEmpty {
                                        // Literals are stored decoded, so a component with escapes is decoded first.
                                        // The reader made the range, within the bytes: not checked again.
                                        let child =
                                            component.needsDecoding
                                            ? node.pointee.literals.child(for: RouteURL.value(of: component, in: bytes, plusAsSpace: false))
                                            : node.pointee.literals.child(
                                                for: UnsafeBufferPointer(
                                                    start: bytes.baseAddress! + component.start, count: component.end - component.start),
                                                readable: bytes.count - component.start)
                                        if let child {
                                            if next >= 0 {
                                                stack[depth] = Step(node: next, index: step.index + 1)
                                                depth += 1
                                            }
                                            next = child
                                        }
                                    }
                                }
                            }
                            if next >= 0 {
                                step = Step(node: next, index: step.index + 1)
                                continue
                            }
                            guard depth > 0 else { break }
                            depth -= 1
                            step = stack[depth]
                        }
                    }
                }
            }
        }
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
        if firstFreeNode >= 0 {
            index = firstFreeNode
            firstFreeNode = nodes[Int(index)].variable
            nodes[Int(index)].variable = -1
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
