/// One pass over a record's bytes, eight at a time: where it ends (its NUL), whether it is all ASCII, and where
/// its first `capacity` '|' separators lie. The parser then reads fields from these positions instead of
/// searching for each separator, and checks no byte twice for ASCII.
struct RecordScan {
    /// Enough for every valid record: a module with all five attributes has seven separators.
    static let capacity = 8

    /// The record's length: the bytes before its NUL, or before the end of the bytes scanned.
    private(set) var length = 0
    private(set) var isASCII = true
    /// Positions of the first separators, from the record's first byte.
    private var stored: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var storedCount = 0
    /// More separators than `capacity`: the fields past the stored ones must be searched for.
    private(set) var overflowed = false

    /// A scan that stored nothing, for a record whose fields are all searched for.
    static func unscanned(length: Int, isASCII: Bool) -> RecordScan {
        var scan = RecordScan()
        scan.length = length
        scan.isASCII = isASCII
        scan.overflowed = true
        return scan
    }

    /// Scans from `start` up to the first NUL or `count`.
    init(_ base: UnsafeRawPointer, from start: Int, count: Int) {
        var index = start
        var high: UInt64 = 0
        while index + 8 <= count {
            let word = UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self))
            let nuls = Self.zeroBytes(word)
            let pipes = Self.zeroBytes(word ^ 0x7C7C_7C7C_7C7C_7C7C)
            if nuls != 0 {
                let before = nuls.trailingZeroBitCount / 8
                let mask: UInt64 = before == 0 ? 0 : (1 << UInt64(8 * before)) - 1
                high |= word & mask
                store(pipes & mask, at: index - start)
                length = index - start + before
                isASCII = high & 0x8080_8080_8080_8080 == 0
                return
            }
            high |= word
            store(pipes, at: index - start)
            index += 8
        }
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0 { break }
            high |= UInt64(byte)
            if byte == UInt8(ascii: "|") { store(index - start) }
            index += 1
        }
        length = index - start
        isASCII = high & 0x8080_8080_8080_8080 == 0
    }

    private init() {}

    /// The separator `index` (below `storedCount`).
    subscript(index: Int) -> Int {
        switch index {
        case 0: Int(stored.0)
        case 1: Int(stored.1)
        case 2: Int(stored.2)
        case 3: Int(stored.3)
        case 4: Int(stored.4)
        case 5: Int(stored.5)
        case 6: Int(stored.6)
        default: Int(stored.7)
        }
    }

    /// Stores the separators a word's mask marks (the high bit of each matching byte).
    private mutating func store(_ mask: UInt64, at offset: Int) {
        var mask = mask
        while mask != 0 {
            store(offset + mask.trailingZeroBitCount / 8)
            mask &= mask - 1
        }
    }

    private mutating func store(_ position: Int) {
        guard storedCount < Self.capacity else {
            overflowed = true
            return
        }
        let value = Int32(truncatingIfNeeded: position)
        switch storedCount {
        case 0: stored.0 = value
        case 1: stored.1 = value
        case 2: stored.2 = value
        case 3: stored.3 = value
        case 4: stored.4 = value
        case 5: stored.5 = value
        case 6: stored.6 = value
        default: stored.7 = value
        }
        storedCount += 1
    }

    /// The high bit of each byte of `word` that is zero, and no other bit: no carry crosses a byte, unlike
    /// the shorter `(word - 0x01…) & ~word` test, so every match is exact and not only the first.
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low) &+ low) | word | low)
    }
}
