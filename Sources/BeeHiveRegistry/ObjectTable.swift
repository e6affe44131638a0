/// Values keyed by loaded-object id, kept in id order.
///
/// Not a `[UInt64: Value]`: the first dictionary or set keyed by `UInt64` in a process looks up
/// `UInt64: Hashable` at run time, one scan of every conformance record of the process, which a start-up that
/// registers in code never pays. A process holds few objects and ids only grow, so an insert is an append and a
/// lookup a binary search.
package struct ObjectTable<Value> {
    /// Ordered by id, one entry per id.
    package private(set) var entries: [(id: UInt64, value: Value)] = []

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }

    package var values: [Value] { entries.map(\.value) }

    package subscript(id: UInt64) -> Value? {
        get {
            let index = position(of: id)
            return index < entries.count && entries[index].id == id ? entries[index].value : nil
        }
        set {
            let index = position(of: id)
            let present = index < entries.count && entries[index].id == id
            switch (newValue, present) {
            case (let value?, true): entries[index].value = value
            case (let value?, false): entries.insert((id, value), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// Removes the value under `id` and returns it, or nil when there is none.
    @discardableResult
    package mutating func removeValue(forID id: UInt64) -> Value? {
        let value = self[id]
        if value != nil { self[id] = nil }
        return value
    }

    /// Where `id` is or would go: the first entry whose id is not less than it.
    private func position(of id: UInt64) -> Int {
        // Ids only grow, so a new one usually goes last.
        if let last = entries.last, last.id < id { return entries.count }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ObjectTable: Sendable where Value: Sendable {}
