@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Testing

/// The words the record hot paths compare a record's first bytes with are made from the format's strings
/// (`RecordParser.versionPrefix`, `currentVersion`, the kinds' names); these tests read the words back as bytes
/// and compare them with those strings, and with the format spelled out here.
@Suite struct RecordPrefixTests {
    let prefix = RecordPrefix.current

    /// The first `count` bytes a word holds in memory, as the hot paths' little-endian loads read them.
    func bytes(of word: UInt64, count: Int = 8) -> [UInt8] {
        withUnsafeBytes(of: word.littleEndian) { Array($0.prefix(count)) }
    }

    func kindPrefix(_ kind: AnnotationKind) -> RecordPrefix.Kind {
        switch kind {
        case .module: prefix.module
        case .service: prefix.service
        case .route: prefix.route
        case .target: prefix.target
        }
    }

    @Test func headerIsTheVersionString() {
        let header = bytes(of: prefix.header) + [prefix.version]
        #expect(header == Array((RecordParser.versionPrefix + RecordParser.currentVersion).utf8))
        #expect(String(decoding: header, as: UTF8.self) == "beehive:1")
        #expect(prefix.headerLength == header.count)
    }

    @Test(arguments: [
        (AnnotationKind.module, "beehive:1|module|"), (.service, "beehive:1|service|"), (.route, "beehive:1|route|"),
        (.target, "beehive:1|target|"),
    ])
    func eachKindsWordsAreItsPrefix(kind: AnnotationKind, spelled: String) {
        let words = kindPrefix(kind)
        let tailCount = words.length - 16
        let read = bytes(of: prefix.header) + bytes(of: words.word) + bytes(of: UInt64(words.tail), count: tailCount)
        let defined = Array("\(RecordParser.versionPrefix)\(RecordParser.currentVersion)|\(kind.rawValue)|".utf8)
        #expect(read == defined, "\(kind): the words read '\(String(decoding: read, as: UTF8.self))'")
        #expect(defined == Array(spelled.utf8))
        #expect(words.length == defined.count)
        // The mask keeps the tail's bytes and nothing after them.
        #expect(bytes(of: UInt64(words.tailMask), count: 2) == (0..<2).map { $0 < tailCount ? 0xFF : 0 })
    }

    /// The words tell the kinds apart by their second word alone, which is what the scan switches on.
    @Test func kindsDifferInTheirSecondWord() {
        let words = AnnotationKind.allCases.map { kindPrefix($0).word }
        #expect(Set(words).count == words.count)
    }

    /// A record that differs from a current prefix in any one byte is not read through the words: it is
    /// parsed the slow way and refused, or parsed as what it really says.
    @Test(arguments: AnnotationKind.allCases)
    func aByteOffInThePrefixIsNotTakenForIt(kind: AnnotationKind) {
        let valid = switch kind {
        case .module: "beehive:1|module|Shop.M"
        case .service: "beehive:1|service|Shop.S|Shop.Impl"
        case .route: "beehive:1|route|/a|Shop.Handler"
        case .target: "beehive:1|target|shop|Shop.Target"
        }
        let section = kind.section
        let parsed = RecordParser.records(inSection: section, bytes: Array(valid.utf8) + [0], objectPath: "/lib/libShop.so")
        #expect(parsed.records.map(\.kind) == [kind] && parsed.diagnostics.isEmpty, "\(valid): \(parsed.diagnostics)")
        for position in 0..<kindPrefix(kind).length {
            var bytes = Array(valid.utf8)
            // No byte of a prefix is an 'x'.
            bytes[position] = UInt8(ascii: "x")
            let changed = RecordParser.records(inSection: section, bytes: bytes + [0], objectPath: "/lib/libShop.so")
            #expect(
                changed.records.isEmpty && changed.diagnostics.count == 1,
                "\(String(decoding: bytes, as: UTF8.self)) was read as \(changed.records.map(\.text))")
        }
    }
}
