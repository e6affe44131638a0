/// What every record of the current version starts with, `beehive:1|<kind>|`, as the little-endian words that
/// the hot paths (`RecordScan`, `RecordParser.bareModuleRecordLength`) compare a record's first bytes with.
///
/// Made once from the format's one definition on the Swift side, `RecordParser.versionPrefix` and
/// `currentVersion` (checked against `beehive.h` by WireFormatTests) and the kinds' names (`AnnotationKind`),
/// so that no word spells the format a second time. The hot paths compare words rather than strings because
/// every record of the process goes through them at start-up.
struct RecordPrefix: Sendable {
    /// The prefix of one kind past its first word: the second word, and what follows it (at most two bytes,
    /// kept by `tailMask`: `|` for `module` and `target`, `e|` for `service`, nothing for `route`).
    struct Kind: Sendable {
        let word: UInt64
        let tail: UInt16
        let tailMask: UInt16
        /// The whole prefix's length, kind and separators included.
        let length: Int

        /// `length` when the two bytes after a record's second word, this kind's, are `following` (as a
        /// little-endian word); 0 otherwise.
        @inline(__always)
        func length(following: UInt16) -> Int {
            following & tailMask == tail ? length : 0
        }
    }

    /// The first word of every record: `beehive:`, the version prefix.
    let header: UInt64
    /// The version's byte after the header word: `1`.
    let version: UInt8
    /// The header field's length (`beehive:1`), which is where a record's first separator lies.
    let headerLength: Int
    let module: Kind
    let service: Kind
    let route: Kind
    let target: Kind

    /// How many bytes from a record's start the words and a kind's tail cover: two words and two bytes. A
    /// record shorter than that is read without the words.
    static let coveredLength = 2 * 8 + 2

    static let current = RecordPrefix(
        versionPrefix: RecordParser.versionPrefix, version: RecordParser.currentVersion)

    /// The words of `versionPrefix + version` and each kind. The hot paths read the header as one word and a
    /// byte and a kind's prefix as two words and its tail, so a format that no longer fits that shape stops
    /// here, at its first use, rather than being read wrong.
    private init(versionPrefix: String, version: String) {
        let prefix = Array(versionPrefix.utf8)
        let versionBytes = Array(version.utf8)
        precondition(
            prefix.count == 8 && versionBytes.count == 1,
            "the record header '\(versionPrefix)\(version)' is no longer one word and a byte: RecordPrefix must change")
        header = Self.word(prefix[...])
        self.version = versionBytes[0]
        headerLength = prefix.count + versionBytes.count
        func kind(_ kind: AnnotationKind) -> Kind {
            let bytes = prefix + versionBytes + Array("|\(kind.rawValue)|".utf8)
            precondition(
                (16...Self.coveredLength).contains(bytes.count),
                "the prefix of a \(kind.rawValue) record is no longer two words and at most two bytes: RecordPrefix must change")
            let tail = bytes[16...]
            return Kind(
                word: Self.word(bytes[8..<16]), tail: UInt16(truncatingIfNeeded: Self.word(tail)),
                tailMask: UInt16(truncatingIfNeeded: Self.word(tail.map { _ in 0xFF }[...])), length: bytes.count)
        }
        module = kind(.module)
        service = kind(.service)
        route = kind(.route)
        target = kind(.target)
    }

    /// Up to eight bytes as the little-endian word they load as: the first byte lowest.
    static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
