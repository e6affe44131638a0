/// The one rule that orders modules for launch, used by the module manager to launch them and by `HiveGraph` to
/// draw them, so a graph never shows an order the launch does not follow.
///
/// Level first (basic before normal), then priority (higher first), then name, except that a module always
/// comes after the modules it depends on: among the modules whose dependencies are all placed, the one that
/// ranks first by level, priority and name goes next. Dependencies on modules that are not in the set are
/// ignored here; the module manager checks them. Modules caught in a cycle come last, in rank order.
package enum LaunchOrder {
    /// Whether the module ranked by `lhs` goes before the one ranked by `rhs` when dependencies do not decide.
    /// `namesAscend` (whether `lhs`'s name sorts before `rhs`'s) is evaluated only when level and priority tie:
    /// reading the names copied them (a retain and a release each, for names too long to be stored inline) in
    /// every comparison of the sort, even those the priority decided.
    @inline(__always)
    package static func ranksBefore(
        _ lhs: (level: ModuleLevel, priority: Int), _ rhs: (level: ModuleLevel, priority: Int),
        namesAscend: () -> Bool
    ) -> Bool {
        if lhs.level != rhs.level { return lhs.level < rhs.level }
        if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
        return namesAscend()
    }

    /// The positions `0..<count` in launch order, and one cycle's names when some modules could not be placed.
    ///
    /// Works on positions and reads each module through the closures, so callers order their own entries
    /// without copying them into a common type. Names are hashed only when some module has dependencies.
    package static func arrange(
        count: Int,
        ranksBefore: (Int, Int) -> Bool,
        name: (Int) -> String,
        dependencies: (Int) -> [String]
    ) -> (order: [Int], cycle: [String]?) {
        let ranked = (0..<count).sorted(by: ranksBefore)
        guard ranked.contains(where: { !dependencies($0).isEmpty }) else { return (ranked, nil) }
        var rankOfName: [String: Int] = [:]
        for (rank, index) in ranked.enumerated() { rankOfName[name(index)] = rank }

        var dependents = [[Int]](repeating: [], count: count)
        var unplacedDependencies = [Int](repeating: 0, count: count)
        for (rank, index) in ranked.enumerated() {
            for dependency in Set(dependencies(index)) {
                guard let dependencyRank = rankOfName[dependency] else { continue }
                dependents[dependencyRank].append(rank)
                unplacedDependencies[rank] += 1
            }
        }

        var ready = MinHeap(ranked.indices.filter { unplacedDependencies[$0] == 0 })
        var order: [Int] = []
        order.reserveCapacity(count)
        while let rank = ready.popMin() {
            order.append(ranked[rank])
            for dependent in dependents[rank] {
                unplacedDependencies[dependent] -= 1
                if unplacedDependencies[dependent] == 0 { ready.insert(dependent) }
            }
        }
        guard order.count == count else {
            let stuck = ranked.indices.filter { unplacedDependencies[$0] > 0 }
            let cycle = cycle(
                among: stuck, unplaced: unplacedDependencies, rankOfName: rankOfName,
                name: { name(ranked[$0]) }, dependencies: { dependencies(ranked[$0]) })
            return (order + stuck.map { ranked[$0] }, cycle)
        }
        return (order, nil)
    }

    /// Every unplaced module waits on another unplaced one, so following dependencies from any of them must
    /// come back to a module already seen: that loop is a cycle. Starting from the first unplaced name and
    /// following the first unplaced dependency by name makes the answer deterministic. Works on ranks.
    private static func cycle(
        among stuck: [Int], unplaced: [Int], rankOfName: [String: Int],
        name: (Int) -> String, dependencies: (Int) -> [String]
    ) -> [String] {
        guard var current = stuck.min(by: { name($0) < name($1) }) else { return [] }
        var path: [Int] = []
        var position: [Int: Int] = [:]
        while position[current] == nil {
            position[current] = path.count
            path.append(current)
            let next = dependencies(current).sorted().lazy
                .compactMap { rankOfName[$0] }
                .first { unplaced[$0] > 0 && $0 != current }
            guard let next else { break }
            current = next
        }
        guard let start = position[current] else { return [] }
        let loop = path[start...].map(name)
        // Start the loop at its smallest name so the message does not depend on where the walk began.
        let first = loop.indices.min { loop[$0] < loop[$1] } ?? 0
        let rotated = Array(loop[first...] + loop[..<first])
        return rotated + [rotated[0]]
    }
}

/// A binary min-heap of ranks, for picking the best-ranked ready module in O(log n).
private struct MinHeap {
    private var items: [Int] = []

    init(_ values: [Int]) {
        for value in values { insert(value) }
    }

    mutating func insert(_ value: Int) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left] < items[smallest] { smallest = left }
            if right < items.count && items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
