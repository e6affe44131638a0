@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

/// The bytes of a section built from pieces: strings are stored without a NUL, so each test spells out its
/// terminators and padding.
private func section(_ pieces: [SectionPiece]) -> [UInt8] {
    pieces.flatMap { piece -> [UInt8] in
        switch piece {
        case .text(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        case .nul(let count): Array(repeating: 0, count: count)
        }
    }
}

private enum SectionPiece {
    case text(String)
    case bytes([UInt8])
    case nul(Int)
}

private func split(_ bytes: [UInt8], section name: String = SectionName.modules)
    -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic])
{
    RecordParser.records(inSection: name, bytes: bytes, objectPath: "/lib/libShop.so")
}

@Suite struct SectionSplitting {
    let first = "beehive:1|module|Shop.First"
    let second = "beehive:1|module|Shop.Second|level=basic"

    @Test func recordsSeparatedBySingleNULs() {
        let result = split(section([.text(first), .nul(1), .text(second), .nul(1)]))
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.text) == [first, second])
        #expect(result.records.map(\.origin.offset) == [0, first.utf8.count + 1])
        #expect(result.records.allSatisfy { $0.origin.objectPath == "/lib/libShop.so" && $0.origin.section == "beehive_mods" })
    }

    /// gcc may align each record to 16 or 32 bytes; AddressSanitizer pads every global with a redzone.
    @Test(arguments: [1, 3, 16, 37, 64])
    func paddingRunsBetweenRecordsAreSkipped(padding: Int) {
        let result = split(section([.nul(padding), .text(first), .nul(padding), .text(second), .nul(padding)]))
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.text) == [first, second])
        #expect(result.records.map(\.origin.offset) == [padding, padding + first.utf8.count + padding])
    }

    @Test func asanStyleRedzonesAroundEveryRecord() {
        // A 64-byte slot per record: the string, its NUL, then zeroed redzone.
        let slots = [first, second, "beehive:1|module|Shop.Third"].flatMap { text -> [UInt8] in
            Array(text.utf8) + Array(repeating: 0, count: 64 - text.utf8.count)
        }
        let result = split(slots)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.origin.offset) == [0, 64, 128])
    }

    @Test func emptyAndAllPaddingSectionsHoldNothing() {
        #expect(split([]).records.isEmpty && split([]).diagnostics.isEmpty)
        #expect(split(section([.nul(128)])).records.isEmpty && split(section([.nul(128)])).diagnostics.isEmpty)
    }

    @Test func recordNotNULTerminatedAtTheEndOfTheSection() throws {
        let result = split(section([.text(first), .nul(1), .text("beehive:1|module|Shop.Cut")]))
        #expect(result.records.map(\.text) == [first])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(diagnostic.kind == .malformedRecord(reason: "not NUL-terminated at the end of the section"))
        #expect(diagnostic.record == "beehive:1|module|Shop.Cut")
        #expect(diagnostic.objectPath == "/lib/libShop.so" && diagnostic.section == "beehive_mods")
    }

    @Test func oversizedRecordIsRefusedAndTheNextOneStillRead() throws {
        let long = "beehive:1|module|Big." + String(repeating: "x", count: 5000)
        let result = split(section([.text(long), .nul(1), .text(second), .nul(1)]))
        #expect(result.records.map(\.text) == [second])
        #expect(result.diagnostics.map(\.kind) == [.oversizedRecord(length: 5021)])
        let shown = try #require(result.diagnostics.first?.record)
        #expect(shown.hasPrefix("beehive:1|module|Big.xxx") && shown.count < 300)
    }

    @Test func recordLengthLimitIsInclusive() {
        let prefix = "beehive:1|module|A."
        let atLimit = prefix + String(repeating: "x", count: RecordParser.maximumRecordLength - prefix.utf8.count)
        let overLimit = atLimit + "x"
        #expect(split(section([.text(atLimit), .nul(1)])).records.count == 1)
        #expect(split(section([.text(overLimit), .nul(1)])).diagnostics.map(\.kind) == [.oversizedRecord(length: 4097)])
    }

    @Test(arguments: [[0xFF, 0xFE], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) throws {
        let result = split(section([.text("beehive:1|module|Bad."), .bytes(bytes), .text("Name"), .nul(1), .text(first), .nul(1)]))
        #expect(result.records.map(\.text) == [first])
        #expect(result.diagnostics.map(\.kind) == [.invalidUTF8])
        #expect(try #require(result.diagnostics.first?.record).contains("\u{FFFD}"))
    }

    @Test func validMultibyteUTF8IsAccepted() {
        let result = split(section([.text("beehive:1|module|Café.Modül"), .nul(1)]))
        #expect(result.records.map(\.text) == ["beehive:1|module|Café.Modül"])
    }

    @Test(arguments: [
        ("beehive:1|module|Shop.M", SectionName.services, AnnotationKind.module),
        ("beehive:1|module|Shop.M", SectionName.routes, .module),
        ("beehive:1|service|Shop.P|Shop.T", SectionName.modules, .service),
        ("beehive:1|route|/a|Shop.H", SectionName.modules, .route),
        ("beehive:1|target|T|Shop.T", SectionName.services, .target),
        ("beehive:1|module|Shop.M", "beehive_other", .module),
    ])
    func recordInTheWrongSection(text: String, section name: String, kind: AnnotationKind) {
        let result = split(section([.text(text), .nul(1)]), section: name)
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.misplacedRecord(kind: kind, expectedSection: kind.section)])
        #expect(result.diagnostics.first?.section == name)
    }

    @Test func routesAndTargetsShareTheirSection() {
        let result = split(
            section([.text("beehive:1|route|/a|Shop.H"), .nul(1), .text("beehive:1|target|T|Shop.T"), .nul(1)]),
            section: SectionName.routes)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.kind) == [.route, .target])
    }

    @Test func badRecordsDoNotStopTheRest() {
        let result = split(section([
            .text("beehive:2|module|Future.M"), .nul(1), .text("junk"), .nul(3), .text(first), .nul(1),
            .text("beehive:1|module|Shop.M|level=extreme"), .nul(1), .text(second), .nul(1),
        ]))
        #expect(result.records.map(\.text) == [first, second])
        #expect(result.diagnostics.map(\.kind.name) == ["unknownVersion", "malformedRecord", "malformedRecord"])
    }
}
