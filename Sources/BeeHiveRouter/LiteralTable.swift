/// The literal children of a trie node, keyed by the UTF-8 bytes of their text.
///
/// A lookup hashes the URL component's bytes where they lie, eight at a time, and compares them: no `String`, no
/// `Hasher`, no allocation. A key's first 16 bytes are stored in its entry, so a key that short, which path
/// components mostly are, is compared as two words without following a pointer to its bytes. Open addressing
/// with linear probing, kept at most half full, with the entries in the slots themselves: a lookup in a large
/// table reads the slot it lands on and then the child node, one dependent memory access fewer than an index
/// into a separate entry array. Removal shifts the following entries back instead of leaving tombstones, so
/// lookups never slow down as routes come and go.
struct LiteralTable: Sendable {
    /// 32 bytes, two to a cache line: a 48-byte entry (with its hash stored) straddled two lines every other slot,
    /// and a lookup in a large table paid for both. A probe compares the head itself, which settles a short key.
    private struct Entry: Sendable {
        /// The key's first 16 bytes, zero-padded.
        let low: UInt64
        let high: UInt64
        let key: [UInt8]
        let count: Int32
        /// -1 in an empty slot.
        let child: Int32

        init(head: Head, key: [UInt8], child: Int32) {
            low = head.low
            high = head.high
            count = Int32(truncatingIfNeeded: head.count)
            self.key = key
            self.child = child
        }

        static let empty = Entry(head: Head(low: 0, high: 0, count: 0), key: [], child: -1)
        var isEmpty: Bool { child < 0 }

        @inline(__always)
        func holds(_ head: Head) -> Bool {
            low == head.low && high == head.high && Int(count) == head.count
        }

        /// The hash of its key, computed again when the table grows or shifts entries back on removal.
        var hash: UInt64 {
            key.withUnsafeBufferPointer { LiteralTable.hash($0, head: Head(low: low, high: high, count: Int(count))) }
        }
    }

    /// Up to 16 bytes of a key, zero-padded, with the key's length.
    private struct Head: Sendable {
        let low: UInt64
        let high: UInt64
        let count: Int

        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) {
            count = bytes.count
            guard readable >= 16 else {
                low = LiteralTable.word(bytes, at: 0)
                high = LiteralTable.word(bytes, at: 8)
                return
            }
            // Two whole words, masked to the key: no branch on the key's length.
            let base = UnsafeRawPointer(bytes.baseAddress!)
            low = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) & Self.mask(count)
            high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & Self.mask(count - 8)
        }

        /// Ones over the first `count` bytes of a word: all of it from eight bytes on, none from zero down.
        @inline(__always)
        private static func mask(_ count: Int) -> UInt64 {
            count >= 8 ? ~0 : count <= 0 ? 0 : (1 << UInt64(8 * count)) &- 1
        }

        init(low: UInt64, high: UInt64, count: Int) {
            self.low = low
            self.high = high
            self.count = count
        }

        /// Whether the head is the whole key.
        var isShort: Bool { count <= 16 }
    }

    /// Its count is zero or a power of two.
    private var slots: [Entry] = []
    private var count = 0

    var isEmpty: Bool { count == 0 }

    /// The child for the key whose bytes `key` holds. `readable` bytes from its start may be read (the URL
    /// around a component goes on past it), so that a short key is loaded as whole words.
    @inline(__always)
    func child(for key: UnsafeBufferPointer<UInt8>, readable: Int) -> Int32? {
        find(key, readable: readable)?.child
    }

    func child(for key: String) -> Int32? {
        var key = key
        return key.withUTF8 { child(for: $0, readable: $0.count) }
    }

    /// Adds a child; the key must not be present.
    mutating func insert(_ key: String, child: Int32) {
        precondition(child >= 0, "a child is a node index")
        if (count + 1) * 2 > slots.count { grow() }
        let bytes = Array(key.utf8)
        let entry = bytes.withUnsafeBufferPointer { buffer in
            Entry(head: Head(buffer, readable: buffer.count), key: bytes, child: child)
        }
        place(entry)
        count += 1
    }

    mutating func remove(_ key: String) {
        var key = key
        guard var hole = key.withUTF8({ find($0, readable: $0.count)?.slot }) else { return }
        let mask = slots.count - 1
        slots[hole] = .empty
        count -= 1
        // Shift back every entry of the run that would no longer be found past the hole.
        var next = (hole + 1) & mask
        while !slots[next].isEmpty {
            let home = Int(truncatingIfNeeded: slots[next].hash) & mask
            let reachable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next)
            if reachable {
                slots.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// The slot of the key and the child it holds, read from the entry found: reading the child by the slot's
    /// index afterwards checked the index against the bounds again.
    @inline(__always)
    private func find(_ key: UnsafeBufferPointer<UInt8>, readable: Int) -> (slot: Int, child: Int32)? {
        guard count > 0 else { return nil }
        let head = Head(key, readable: readable)
        let hash = Self.hash(key, head: head)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = slots.baseAddress! + slot
                if entry.pointee.isEmpty { return nil }
                if entry.pointee.holds(head)
                    && (head.isShort || entry.pointee.key.withUnsafeBufferPointer({ $0.elementsEqual(key) }))
                {
                    return (slot, entry.pointee.child)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Puts an entry in the first free slot of its run; the table has room.
    private mutating func place(_ entry: Entry) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while !slots[slot].isEmpty { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        slots = [Entry](repeating: .empty, count: max(8, old.count * 2))
        for entry in old where !entry.isEmpty { place(entry) }
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

    /// The head's two words multiplied together into 128 bits whose halves are folded (wyhash's mixing step), then
    /// the rest of a longer key a word at a time, each mixed the same way. The length goes in with the first word,
    /// so that keys differing only in trailing zero bytes differ. A lookup waits on this hash at every level of
    /// the walk: one multiply takes half the time of the chained multiply-and-shift steps it replaces, which also
    /// mixed the last bytes of a 16-byte key into few of the bits that pick a slot.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, head: Head) -> UInt64 {
        var hash = mix(head.low ^ 0xA076_1D64_78BD_642F ^ UInt64(bytes.count), head.high ^ 0xE703_7ED1_A0B4_28DB)
        var offset = 16
        while offset < bytes.count {
            hash = mix(hash ^ word(bytes, at: offset), 0x8EBC_6AF0_9C88_C6E3)
            offset += 8
        }
        return hash
    }

    /// Both halves of the full product, folded: every bit of either word reaches every bit of the result.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
