/// The names of the types the manager has named, by type: every registration in code and every lookup the
/// cache cannot answer asks it.
///
/// Open addressing with linear probing and a multiplicative hash of the type's address, like `InstanceCache`:
/// `Dictionary` ran `Hasher` on each of the three visits of a registration and its removal (a miss took 326
/// instructions, here 50). Types are only added, never removed, so there is no deletion to handle.
struct TypeNameTable {
    private struct Entry {
        let type: ObjectIdentifier
        let name: String
    }

    private var entries = [Entry?](repeating: nil, count: 16)
    private var count = 0

    subscript(type: ObjectIdentifier) -> String? {
        let mask = entries.count - 1
        var index = Self.slot(type) & mask
        while let entry = entries[index] {
            if entry.type == type { return entry.name }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Adds the name of a type not in the table, or replaces it.
    mutating func insert(_ name: String, for type: ObjectIdentifier) {
        // At most half full, so probes stay short and always end at an empty slot.
        if (count + 1) * 2 > entries.count {
            let old = entries
            entries = [Entry?](repeating: nil, count: old.count * 2)
            count = 0
            for case let entry? in old { insert(entry.name, for: entry.type) }
        }
        let mask = entries.count - 1
        var index = Self.slot(type) & mask
        while let entry = entries[index], entry.type != type {
            index = (index + 1) & mask
        }
        if entries[index] == nil { count += 1 }
        entries[index] = Entry(type: type, name: name)
    }

    private static func slot(_ type: ObjectIdentifier) -> Int {
        // Fibonacci hashing: the high bits of the product mix every bit of the address.
        Int(truncatingIfNeeded: (UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
