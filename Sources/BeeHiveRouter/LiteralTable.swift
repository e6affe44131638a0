/// The literal children of a trie node, keyed by the UTF-8 bytes of their text.
///
/// A lookup hashes the URL component's bytes where they lie, eight at a time, and compares them: no `String`, no
/// `Hasher`, no allocation. A key's first 16 bytes are stored in its entry, so a key that short, which path
/// components mostly are, is compared as two words without following a pointer to its bytes. Open addressing
/// with linear probing, kept at most half full; removal shifts the following entries back instead of leaving
/// tombstones, so lookups never slow down as routes come and go.
struct LiteralTable: Sendable {
    private struct Entry: Sendable {
        let hash: UInt64
        /// The key's first 16 bytes, zero-padded.
        let head: Head
        let key: [UInt8]
        let child: Int32
    }

    /// Up to 16 bytes of a key, zero-padded, with the key's length.
    private struct Head: Equatable, Sendable {
        let low: UInt64
        let high: UInt64
        let count: Int

        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            low = LiteralTable.word(bytes, at: 0)
            high = LiteralTable.word(bytes, at: 8)
            count = bytes.count
        }

        /// Whether the head is the whole key.
        var isShort: Bool { count <= 16 }
    }

    private var entries: [Entry] = []
    /// Indices into `entries`, -1 for an empty slot. Its count is zero or a power of two.
    private var slots: [Int32] = []

    var isEmpty: Bool { entries.isEmpty }

    func child(for key: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let slot = slot(of: key) else { return nil }
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
        let entry = bytes.withUnsafeBufferPointer { buffer in
            let head = Head(buffer)
            return Entry(hash: Self.hash(buffer, head: head), head: head, key: bytes, child: child)
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entries.count)
        entries.append(entry)
    }

    mutating func remove(_ key: String) {
        var key = key
        guard var hole = key.withUTF8({ slot(of: $0) }) else { return }
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
            let movedSlot = moved.key.withUnsafeBufferPointer { slot(of: $0) }!
            slots[movedSlot] = Int32(removed)
            entries[removed] = moved
        }
        entries.removeLast()
    }

    private func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let head = Head(key)
        let hash = Self.hash(key, head: head)
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let index = slots[slot]
                    if index < 0 { return nil }
                    let entry = entries.baseAddress! + Int(index)
                    if entry.pointee.hash == hash && entry.pointee.head == head
                        && (head.isShort || entry.pointee.key.withUnsafeBufferPointer({ $0.elementsEqual(key) }))
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

    /// The eight bytes at `offset`, zero-padded past the end, read in at most three loads: keys are read where
    /// they lie, and reading past their end could cross into an unmapped page.
    @inline(__always)
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        let available = bytes.count - offset
        guard available > 0 else { return 0 }
        let base = UnsafeRawPointer(bytes.baseAddress! + offset)
        if available >= 8 { return UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) }
        var word: UInt64 = 0
        var index = 0
        if available >= 4 {
            word = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
            index = 4
        }
        if available - index >= 2 {
            word |= UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt16.self))) << (8 * index)
            index += 2
        }
        if available > index { word |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
        return word
    }

    /// The head's two words, then the rest of a longer key a word at a time, each mixed in by a multiply and a
    /// shift (SplitMix64's finalizer); the length first, so that keys differing only in trailing zero bytes
    /// differ.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, head: Head) -> UInt64 {
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ head.low) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash = (hash ^ head.high) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        var offset = 16
        while offset < bytes.count {
            hash = (hash ^ word(bytes, at: offset)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        return hash ^ (hash >> 29)
    }
}
