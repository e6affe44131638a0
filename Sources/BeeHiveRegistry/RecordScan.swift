#if canImport(Glibc)
import Glibc
#endif

/// One pass over a record's bytes, eight at a time: where it ends (its NUL), whether it is all ASCII, and where
/// its first `capacity` '|' separators lie. The parser then reads fields from these positions instead of
/// searching for each separator, and checks no byte twice for ASCII.
struct RecordScan {
    /// Enough for every valid record: a module with all five attributes has seven separators.
    static let capacity = 8

    /// The record's length: the bytes before its NUL, or before the end of the bytes scanned.
    private(set) var length = 0
    private(set) var isASCII = true
    /// Positions of the first separators, from the record's first byte, 16 bits each: four in `low`, four in
    /// `high`. Plain words rather than a tuple, which the parser copied whole (with stalled loads) to read one
    /// element. 16 bits hold every position of a record the parser reads fields of (`maximumRecordLength`);
    /// a longer record is refused before its fields are read.
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private(set) var storedCount = 0
    /// More separators than `capacity`: the fields past the stored ones must be searched for.
    private(set) var overflowed = false
    /// The parser's cursor, kept here so that reading fields copies no scan: where the next field starts
    /// (past the end once every field was read), and how many fields were read.
    private var position = 0
    private var fieldIndex = 0

    /// A scan that stored nothing, for a record whose fields are all searched for.
    static func unscanned(length: Int, isASCII: Bool) -> RecordScan {
        var scan = RecordScan()
        scan.length = length
        scan.isASCII = isASCII
        scan.overflowed = true
        return scan
    }

    /// Scans from `start` up to the first NUL or `count`. Inlined, so that the scan is built where the parser
    /// keeps it rather than built elsewhere and copied. `prefix` is `RecordPrefix.current`, which the section
    /// parser reads once for all its records.
    @inline(__always)
    init(_ base: UnsafeRawPointer, from start: Int, count: Int, prefix: RecordPrefix) {
        var index = start
        var high: UInt64 = 0
        // Nearly every record starts with the current header and a kind: those bytes hold no NUL, are ASCII
        // and have their separators at known places (after the header and after the kind), so they are
        // compared as words rather than scanned.
        let prefixLength = Self.currentPrefixLength(base, at: start, count: count, prefix: prefix)
        if prefixLength != 0 {
            low = UInt64(prefix.headerLength) | UInt64(prefixLength - 1) << 16
            storedCount = 2
            index += prefixLength
        }
        while index + 8 <= count {
            let word = UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self))
            let nuls = ByteMask.equal(word, 0)
            let pipes = ByteMask.equal(word, UInt8(ascii: "|"))
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

    /// The length of `beehive:1|<kind>|` at `start`, or 0 when the record does not start so (it is then scanned
    /// from its first byte, and the parser says what is wrong with it).
    @inline(__always)
    private static func currentPrefixLength(_ base: UnsafeRawPointer, at start: Int, count: Int, prefix: RecordPrefix) -> Int {
        guard start + RecordPrefix.coveredLength <= count,
            UInt64(littleEndian: (base + start).loadUnaligned(as: UInt64.self)) == prefix.header
        else { return 0 }
        let following = UInt16(littleEndian: (base + start + 16).loadUnaligned(as: UInt16.self))
        switch UInt64(littleEndian: (base + start + 8).loadUnaligned(as: UInt64.self)) {
        case prefix.module.word: return prefix.module.length(following: following)
        case prefix.service.word: return prefix.service.length(following: following)
        case prefix.route.word: return prefix.route.length(following: following)
        case prefix.target.word: return prefix.target.length(following: following)
        default: return 0
        }
    }

    func hasMore(in bytes: UnsafeRawBufferPointer) -> Bool { position <= bytes.count }

    /// The next field of the record `bytes`, the record this scan was made of.
    @inline(__always)
    mutating func next(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        guard position <= bytes.count, let base = bytes.baseAddress else { return nil }
        let start = position
        let end: Int
        if fieldIndex < storedCount {
            // The stored properties directly: a call to the subscript from here copied the whole scan.
            let word = fieldIndex < 4 ? low : high
            end = Int(truncatingIfNeeded: (word >> UInt64(16 * (fieldIndex & 3))) & 0xFFFF)
        } else if !overflowed {
            end = bytes.count
        } else {
            end = memchr(base + start, Int32(UInt8(ascii: "|")), bytes.count - start)
                .map { UnsafeRawPointer($0) - base } ?? bytes.count
        }
        fieldIndex += 1
        position = end + 1
        return start..<end
    }

    /// Stores the separators a word's mask marks (the high bit of each matching byte).
    @inline(__always)
    private mutating func store(_ mask: UInt64, at offset: Int) {
        var mask = mask
        while mask != 0 {
            store(offset + mask.trailingZeroBitCount / 8)
            mask &= mask - 1
        }
    }

    @inline(__always)
    private mutating func store(_ position: Int) {
        guard storedCount < Self.capacity else {
            overflowed = true
            return
        }
        let value = UInt64(UInt16(truncatingIfNeeded: position)) << UInt64(16 * (storedCount & 3))
        if storedCount < 4 {
            low |= value
        } else {
            high |= value
        }
        storedCount += 1
    }
}
