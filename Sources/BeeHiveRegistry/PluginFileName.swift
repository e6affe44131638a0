/// A plugin file's name, ordered and compared by its bytes, as the file system knows it: two Unicode spellings
/// of one name are two files. The index and its cache both list plugins in this order, so a warm start meets
/// each cache entry walking both lists in step. Its first 16 bytes are kept as two integers, which tell most
/// names apart in two comparisons: sorting a folder's names as strings cost a twentieth of a warm start.
struct PluginFileName: Comparable {
    let name: String
    /// Bytes 0..<8 and 8..<16, the first byte most significant, zero past the end: names hold no NUL, so a
    /// name that is a prefix of another orders first, as it does byte by byte.
    private let head: UInt64
    private let tail: UInt64
    /// Whether the name has more than 16 bytes: only then do equal words leave the names undecided.
    private let isLong: Bool

    /// `bytes` are `name`'s UTF-8 bytes.
    init(_ name: String, bytes: UnsafeRawBufferPointer) {
        self.name = name
        head = Self.word(bytes, from: 0)
        tail = Self.word(bytes, from: 8)
        isLong = bytes.count > 16
    }

    static func < (lhs: PluginFileName, rhs: PluginFileName) -> Bool {
        if lhs.head != rhs.head { return lhs.head < rhs.head }
        if lhs.tail != rhs.tail { return lhs.tail < rhs.tail }
        // Equal words: equal names, unless one goes on.
        guard lhs.isLong || rhs.isLong else { return false }
        return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }

    static func == (lhs: PluginFileName, rhs: PluginFileName) -> Bool {
        guard lhs.head == rhs.head, lhs.tail == rhs.tail, lhs.isLong == rhs.isLong else { return false }
        return !lhs.isLong || lhs.name.utf8.elementsEqual(rhs.name.utf8)
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
        if bytes.count - start >= 8 {
            return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        }
        var word: UInt64 = 0
        for index in 0..<8 {
            word = word << 8 | (start + index < bytes.count ? UInt64(bytes[start + index]) : 0)
        }
        return word
    }
}
