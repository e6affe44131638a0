/// The literal children of a trie node, keyed by the UTF-8 bytes of their text.
///
/// A lookup hashes the URL component's bytes where they lie (FNV-1a) and compares bytes: no `String`, no
/// `Hasher`, no allocation. Open addressing with linear probing, kept at most half full; removal shifts the
/// following entries back instead of leaving tombstones, so lookups never slow down as routes come and go.
struct LiteralTable: Sendable {
    private struct Entry: Sendable {
        let hash: UInt64
        let key: [UInt8]
        let child: Int32
    }

    private var entries: [Entry] = []
    /// Indices into `entries`, -1 for an empty slot. Its count is zero or a power of two.
    private var slots: [Int32] = []

    var isEmpty: Bool { entries.isEmpty }

    func child(for key: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let slot = slot(of: key, hash: Self.hash(key)) else { return nil }
        return entries[Int(slots[slot])].child
    }

    func child(for key: String) -> Int32? {
        var key = key
        return key.withUTF8 { child(for: $0) }
    }

    /// Adds a child; the key must not be present.
    mutating func insert(_ key: String, child: Int32) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        let bytes = Array(key.utf8)
        let entry = Entry(hash: Self.hash(bytes), key: bytes, child: child)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entries.count)
        entries.append(entry)
    }

    mutating func remove(_ key: String) {
        var key = key
        let hash = key.withUTF8 { Self.hash($0) }
        guard var hole = key.withUTF8({ slot(of: $0, hash: hash) }) else { return }
        let removed = Int(slots[hole])
        let mask = slots.count - 1
        slots[hole] = -1
        // Shift back every entry of the run that would no longer be found past the hole.
        var next = (hole + 1) & mask
        while slots[next] >= 0 {
            let home = Int(truncatingIfNeeded: entries[Int(slots[next])].hash) & mask
            let reachable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next)
            if reachable {
                slots[hole] = slots[next]
                slots[next] = -1
                hole = next
            }
            next = (next + 1) & mask
        }
        // Keep `entries` dense: the last entry takes the removed one's place.
        let last = entries.count - 1
        if removed != last {
            let moved = entries[last]
            let movedSlot = moved.key.withUnsafeBufferPointer { slot(of: $0, hash: moved.hash) }!
            slots[movedSlot] = Int32(removed)
            entries[removed] = moved
        }
        entries.removeLast()
    }

    private func slot(of key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let index = slots[slot]
                    if index < 0 { return nil }
                    if entries[Int(index)].hash == hash
                        && entries[Int(index)].key.withUnsafeBufferPointer({ $0.elementsEqual(key) })
                    {
                        return slot
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    private mutating func grow() {
        let capacity = max(8, slots.count * 2)
        slots = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        // FNV's low bits mix poorly; fold the high bits in, since the slot is taken from the low ones.
        return hash ^ (hash >> 29)
    }
}
