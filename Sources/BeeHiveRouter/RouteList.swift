/// The routes that end at one trie node, best rank first, with insertion and removal that never shift the whole
/// list.
///
/// Routes are grouped by priority, highest first. Within a priority, ranks grow with registration, so a new
/// route is appended; a removed one is found by binary search on its order and left as a hole, and the holes are
/// squeezed out once they are half of the group. Ten thousand routes of one pattern come and go in linear time.
struct RouteList: Sendable {
    private struct Group: Sendable {
        let priority: Int
        /// Ascending; holes keep their order so the binary search still works.
        var orders: [UInt64] = []
        var entries: [RouteEntry?] = []
        /// The index of the first route that is not a hole.
        var head = 0
        var liveCount = 0

        init(priority: Int) { self.priority = priority }

        mutating func remove(order: UInt64) -> Bool {
            var low = head
            var high = orders.count
            while low < high {
                let middle = (low + high) / 2
                if orders[middle] < order { low = middle + 1 } else { high = middle }
            }
            guard low < orders.count, orders[low] == order, entries[low] != nil else { return false }
            entries[low] = nil
            liveCount -= 1
            while head < entries.count && entries[head] == nil { head += 1 }
            if liveCount > 0 && liveCount * 2 < entries.count && entries.count > 16 { compact() }
            return true
        }

        mutating func removeAll(where shouldRemove: (RouteEntry) -> Bool) {
            var keptOrders: [UInt64] = []
            var kept: [RouteEntry?] = []
            for (order, entry) in zip(orders[head...], entries[head...]) {
                guard let entry, !shouldRemove(entry) else { continue }
                keptOrders.append(order)
                kept.append(entry)
            }
            orders = keptOrders
            entries = kept
            head = 0
            liveCount = kept.count
        }

        private mutating func compact() {
            var keptOrders: [UInt64] = []
            var kept: [RouteEntry?] = []
            keptOrders.reserveCapacity(liveCount)
            kept.reserveCapacity(liveCount)
            for (order, entry) in zip(orders, entries) where entry != nil {
                keptOrders.append(order)
                kept.append(entry)
            }
            orders = keptOrders
            entries = kept
            head = 0
        }
    }

    /// Highest priority first.
    private var groups: [Group] = []

    /// The best ranked route, kept beside `groups` and set again at the end of every change: the route a routing
    /// call tries first, and mostly the only one, is read without following the list's two buffers. Every group
    /// holds a route at its head, so this is nil only when the list is empty.
    private var first: RouteEntry?

    var isEmpty: Bool { first == nil }

    /// Adds a route ranked after every route of its priority already here (ranks grow with registration).
    mutating func append(_ entry: RouteEntry) {
        let priority = entry.rank.priority
        var index = 0
        while index < groups.count && groups[index].priority > priority { index += 1 }
        if index == groups.count || groups[index].priority != priority {
            groups.insert(Group(priority: priority), at: index)
        }
        groups[index].orders.append(entry.rank.order)
        groups[index].entries.append(entry)
        groups[index].liveCount += 1
        if index == 0 { updateFirst() }
    }

    /// Removes the route of this rank; returns false when it is not here.
    @discardableResult
    mutating func remove(_ rank: RouteRank) -> Bool {
        guard let index = groups.firstIndex(where: { $0.priority == rank.priority }) else { return false }
        guard groups[index].remove(order: rank.order) else { return false }
        if groups[index].liveCount == 0 { groups.remove(at: index) }
        if index == 0 { updateFirst() }
        return true
    }

    /// Removes every route `shouldRemove` picks, keeping the others' order; one pass.
    mutating func removeAll(where shouldRemove: (RouteEntry) -> Bool) {
        for index in groups.indices {
            groups[index].removeAll(where: shouldRemove)
        }
        groups.removeAll { $0.liveCount == 0 }
        updateFirst()
    }

    private mutating func updateFirst() {
        first = groups.first.flatMap { $0.entries[$0.head] }
    }

    /// Where a reading of the list stands: the start, just past the first route (index -1), or just past the last
    /// route read.
    struct Position {
        var group = 0
        var index = 0
    }

    /// The first route at or after `position`, best ranked first; moves `position` past it.
    func next(from position: inout Position) -> RouteCandidate? {
        if position.group == 0 && position.index == 0 {
            position.index = -1
            return first?.candidate
        }
        if position.index < 0 {
            guard let group = groups.first else { return nil }
            position.index = group.head + 1
        }
        while position.group < groups.count {
            let group = position.group
            if position.index < groups[group].head { position.index = groups[group].head }
            while position.index < groups[group].entries.count {
                let entry = groups[group].entries[position.index]?.candidate
                position.index += 1
                if let entry { return entry }
            }
            position.group += 1
            position.index = 0
        }
        return nil
    }
}
