/// Values by type and optional name: the manager's cached instances (the cached lookup path) and the names of
/// the types it has named (every registration in code, every lookup the cache cannot answer).
///
/// Open addressing with linear probing and a multiplicative hash of the type's address, so a lookup neither runs
/// `Hasher` (for an unnamed key) nor allocates; `Dictionary` ran `Hasher` on each visit. Entries are only added or
/// replaced, or all cleared at once, so there is no deletion to handle.
struct TypeKeyedTable<Value> {
    private struct Entry {
        let type: ObjectIdentifier
        let name: String?
        let value: Value
    }

    private var entries = [Entry?](repeating: nil, count: 16)
    private var count = 0

    func value(of type: ObjectIdentifier, name: String? = nil) -> Value? {
        let mask = entries.count - 1
        var index = Self.slot(type, name) & mask
        while let entry = entries[index] {
            if entry.type == type && entry.name == name { return entry.value }
            index = (index + 1) & mask
        }
        return nil
    }

    mutating func insert(_ value: Value, of type: ObjectIdentifier, name: String? = nil) {
        // At most half full, so probes stay short and always end at an empty slot.
        if (count + 1) * 2 > entries.count {
            let old = entries
            entries = [Entry?](repeating: nil, count: old.count * 2)
            count = 0
            for case let entry? in old { insert(entry.value, of: entry.type, name: entry.name) }
        }
        let mask = entries.count - 1
        var index = Self.slot(type, name) & mask
        while let entry = entries[index] {
            if entry.type == type && entry.name == name { break }
            index = (index + 1) & mask
        }
        if entries[index] == nil { count += 1 }
        entries[index] = Entry(type: type, name: name, value: value)
    }

    mutating func removeAll() {
        guard count > 0 else { return }
        entries = [Entry?](repeating: nil, count: 16)
        count = 0
    }

    private static func slot(_ type: ObjectIdentifier, _ name: String?) -> Int {
        // Fibonacci hashing: the high bits of the product mix every bit of the address.
        let mixed = (UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15) >> 32
        return Int(truncatingIfNeeded: mixed) ^ (name?.hashValue ?? 0)
    }
}
