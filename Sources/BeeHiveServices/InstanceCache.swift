/// The table behind the cached lookup path: instances by requested type and service name.
///
/// Open addressing with linear probing and a multiplicative hash of the type's address, so looking up an
/// unnamed service neither runs `Hasher` nor allocates. Entries are only added or replaced; the manager clears
/// the whole table on any change of its registrations, so there is no deletion to handle.
struct InstanceCache {
    private struct Entry {
        let type: ObjectIdentifier
        let name: String?
        let instance: TypedInstance
    }

    private var entries = [Entry?](repeating: nil, count: 16)
    private var count = 0

    func instance(of type: ObjectIdentifier, name: String?) -> TypedInstance? {
        let mask = entries.count - 1
        var index = Self.slot(type, name) & mask
        while let entry = entries[index] {
            if entry.type == type && entry.name == name { return entry.instance }
            index = (index + 1) & mask
        }
        return nil
    }

    mutating func insert(_ instance: TypedInstance, of type: ObjectIdentifier, name: String?) {
        // At most half full, so probes stay short and always end at an empty slot.
        if (count + 1) * 2 > entries.count {
            let old = entries
            entries = [Entry?](repeating: nil, count: old.count * 2)
            count = 0
            for case let entry? in old { insert(entry.instance, of: entry.type, name: entry.name) }
        }
        let mask = entries.count - 1
        var index = Self.slot(type, name) & mask
        while let entry = entries[index] {
            if entry.type == type && entry.name == name { break }
            index = (index + 1) & mask
        }
        if entries[index] == nil { count += 1 }
        entries[index] = Entry(type: type, name: name, instance: instance)
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
