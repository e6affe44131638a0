/// The one order every module is set up, initialized and notified in, whatever registered it.
///
/// Level first (basic before normal), then priority (higher first), then name, except that a module always
/// comes after the modules it depends on: among the modules whose dependencies are all placed, the one that
/// ranks first by level, priority and name goes next. Dependencies on modules that are not in the set are
/// ignored here; the manager checks them.
public enum ModuleOrder {
    /// The descriptors in order.
    /// - Throws: `ModuleError.dependencyCycle` naming the modules of one cycle.
    public static func sorted(_ descriptors: [ModuleDescriptor]) throws(ModuleError) -> [ModuleDescriptor] {
        let arrangement = arrange(descriptors)
        if let cycle = arrangement.cycle { throw .dependencyCycle(cycle) }
        return arrangement.order
    }

    /// Every descriptor, in order; modules caught in a cycle come last in rank order, and `cycle` names one.
    static func arrange(_ descriptors: [ModuleDescriptor]) -> (order: [ModuleDescriptor], cycle: [String]?) {
        let (order, cycle) = arrangedIndices(descriptors)
        return (order.map { descriptors[$0] }, cycle)
    }

    /// `arrange` as positions in `descriptors`: the launch orders its entries by these without moving
    /// descriptors around or looking entries up by name.
    static func arrangedIndices(_ descriptors: [ModuleDescriptor]) -> (order: [Int], cycle: [String]?) {
        // Compared in place through the buffer: through the array, each comparison copied two descriptors.
        let ranked = descriptors.withUnsafeBufferPointer { buffer in
            buffer.indices.sorted { ranksBefore(buffer[$0], buffer[$1]) }
        }
        // Names are hashed only when some module has dependencies to place.
        guard descriptors.contains(where: { !$0.dependencies.isEmpty }) else { return (ranked, nil) }
        var rankOfName: [String: Int] = [:]
        for (rank, index) in ranked.enumerated() { rankOfName[descriptors[index].name] = rank }

        var dependents = [[Int]](repeating: [], count: ranked.count)
        var unplacedDependencies = [Int](repeating: 0, count: ranked.count)
        for (rank, index) in ranked.enumerated() {
            for dependency in Set(descriptors[index].dependencies) {
                guard let dependencyRank = rankOfName[dependency] else { continue }
                dependents[dependencyRank].append(rank)
                unplacedDependencies[rank] += 1
            }
        }

        var ready = MinHeap(ranked.indices.filter { unplacedDependencies[$0] == 0 })
        var order: [Int] = []
        order.reserveCapacity(ranked.count)
        while let rank = ready.popMin() {
            order.append(ranked[rank])
            for dependent in dependents[rank] {
                unplacedDependencies[dependent] -= 1
                if unplacedDependencies[dependent] == 0 { ready.insert(dependent) }
            }
        }
        guard order.count == ranked.count else {
            let stuck = ranked.indices.filter { unplacedDependencies[$0] > 0 }.map { ranked[$0] }
            let cycle = cycle(among: ranked.map { descriptors[$0] }, unplaced: unplacedDependencies, rankOfName: rankOfName)
            return (order + stuck, cycle)
        }
        return (order, nil)
    }

    /// Whether `lhs` goes first when dependencies do not decide.
    static func ranksBefore(_ lhs: ModuleDescriptor, _ rhs: ModuleDescriptor) -> Bool {
        if lhs.level != rhs.level { return lhs.level < rhs.level }
        if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
        return lhs.name < rhs.name
    }

    /// Every unplaced module waits on another unplaced one, so following dependencies from any of them must
    /// come back to a module already seen: that loop is a cycle. Starting from the first unplaced name and
    /// following the first unplaced dependency by name makes the answer deterministic.
    private static func cycle(
        among ranked: [ModuleDescriptor], unplaced: [Int], rankOfName: [String: Int]
    ) -> [String] {
        let stuck = ranked.indices.filter { unplaced[$0] > 0 }
        guard var current = stuck.min(by: { ranked[$0].name < ranked[$1].name }) else { return [] }
        var path: [Int] = []
        var position: [Int: Int] = [:]
        while position[current] == nil {
            position[current] = path.count
            path.append(current)
            let next = ranked[current].dependencies.sorted().lazy
                .compactMap { rankOfName[$0] }
                .first { unplaced[$0] > 0 && $0 != current }
            guard let next else { break }
            current = next
        }
        guard let start = position[current] else { return [] }
        let loop = path[start...].map { ranked[$0].name }
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
