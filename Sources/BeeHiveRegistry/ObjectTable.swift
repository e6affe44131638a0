/// Values keyed by loaded-object id, kept in id order.
///
/// Not a `[UInt64: Value]`: the first dictionary or set keyed by `UInt64` in a process looks up
/// `UInt64: Hashable` at run time, one scan of every conformance record of the process, which a start-up that
/// registers in code never pays. A process holds few objects and ids only grow, so an insert is an append and a
/// lookup a binary search.
///
/// Ids and values live in two arrays, not one of `(id, value)` tuples: each array of a new element type makes
/// the runtime build that type's metadata the first time, and a labelled tuple's is built from its mangled name,
/// some microseconds each at start-up, which registering in code does not pay.
package struct ObjectTable<Value> {
    /// Ascending, one per entry.
    package private(set) var ids: [UInt64] = []
    /// The values, in the order of `ids`.
    package private(set) var values: [Value] = []

    package init() {}

    package var isEmpty: Bool { ids.isEmpty }

    package func contains(id: UInt64) -> Bool {
        let index = position(of: id)
        return index < ids.count && ids[index] == id
    }

    package subscript(id: UInt64) -> Value? {
        get {
            let index = position(of: id)
            return index < ids.count && ids[index] == id ? values[index] : nil
        }
        set {
            let index = position(of: id)
            let present = index < ids.count && ids[index] == id
            switch (newValue, present) {
            case (let value?, true): values[index] = value
            case (let value?, false) where index == ids.count:
                // An insert goes through `CollectionOfOne`, another type to build metadata for at start-up.
                ids.append(id)
                values.append(value)
            case (let value?, false):
                ids.insert(id, at: index)
                values.insert(value, at: index)
            case (nil, true):
                ids.remove(at: index)
                values.remove(at: index)
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
        if let last = ids.last, last < id { return ids.count }
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ObjectTable: Sendable where Value: Sendable {}
