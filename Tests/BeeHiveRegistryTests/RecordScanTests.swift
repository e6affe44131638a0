import BeeHiveRegistry
import Testing

/// The parser finds a record's end and its '|' separators in one pass, eight bytes at a time, and keeps the
/// first eight separators; these tests put NULs, separators and non-ASCII bytes at every place in a word and
/// records past what the pass keeps.
@Suite struct RecordScanning {
    private func split(_ bytes: [UInt8], section: String = SectionName.modules) -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        RecordParser.records(inSection: section, bytes: bytes, objectPath: "/lib/libShop.so")
    }

    /// Records of every length from 17 to 40 bytes, each shifted by 0 to 15 bytes of padding: every record is
    /// found whole, at its offset, with the attributes its separators delimit.
    @Test func everyLengthAtEveryPlaceInAWord() {
        for shift in 0..<16 {
            var bytes = [UInt8](repeating: 0, count: shift)
            var expected: [(text: String, offset: Int, priority: Int)] = []
            for length in 1...24 {
                let priority = length * 7
                let text = "beehive:1|module|S.\(String(repeating: "M", count: length))|priority=\(priority)"
                expected.append((text, bytes.count, priority))
                bytes += Array(text.utf8) + [0]
            }
            let result = split(bytes)
            #expect(result.diagnostics.isEmpty, "shift \(shift): \(result.diagnostics)")
            #expect(result.records.map(\.text) == expected.map(\.text), "shift \(shift)")
            #expect(result.records.map(\.origin.offset) == expected.map(\.offset), "shift \(shift)")
            #expect(result.records.map { record -> Int? in
                if case .module(let module) = record.payload { module.priority } else { nil }
            } == expected.map(\.priority), "shift \(shift)")
        }
    }

    /// A record with every module attribute has seven separators, all kept.
    @Test func everyModuleAttribute() throws {
        let text = "beehive:1|module|Shop.M|level=basic|priority=-3|async=1|depends=Shop.A,Shop.B|ondemand=1"
        let records = split(Array(text.utf8) + [0]).records
        #expect(records.map(\.payload) == [
            .module(ModuleAnnotation(
                typeName: "Shop.M", level: .basic, priority: -3, isAsync: true, dependencies: ["Shop.A", "Shop.B"],
                isOnDemand: true)),
        ])
    }

    /// Fields past the eighth separator are searched for: the diagnostic names the attribute found there.
    @Test(arguments: [
        ("beehive:1|module|Shop.M|level=basic|priority=1|async=0|depends=Shop.A|ondemand=0|colour=red", "unknown attribute 'colour'"),
        ("beehive:1|module|Shop.M|level=basic|priority=1|async=0|depends=Shop.A|ondemand=0|level=basic", "'level' given twice"),
        ("beehive:1|module|Shop.M|level=basic|priority=1|async=0|depends=Shop.A|ondemand=0|a=1|b=2|c=3", "unknown attribute 'a'"),
    ])
    func fieldsBeyondTheKeptSeparators(text: String, reason: String) {
        let diagnostics = split(Array(text.utf8) + [0]).diagnostics
        guard case .malformedRecord(let found) = diagnostics.first?.kind else {
            Issue.record("expected a malformed record, got \(diagnostics)")
            return
        }
        #expect(diagnostics.count == 1 && found.contains(reason), "\(found)")
    }

    /// A byte above 0x7F in any place of a word makes the record go through UTF-8 validation.
    @Test func nonASCIIAnywhereIsValidated() {
        let text = "beehive:1|module|Shop.Modules"
        for index in text.utf8.indices.map({ text.utf8.distance(from: text.utf8.startIndex, to: $0) }) {
            var bytes = Array(text.utf8)
            bytes[index] = 0xFF
            let diagnostics = split(bytes + [0]).diagnostics
            #expect(diagnostics.map(\.kind) == [.invalidUTF8], "0xFF at \(index)")
        }
    }

    /// A record handed over on its own may hold a NUL: no field accepts it, and the record is refused.
    @Test func nulInsideARecordGivenOnItsOwn() {
        let origin = RecordOrigin(objectPath: "/lib/libShop.so", section: SectionName.modules, offset: 0)
        for text in ["beehive:1|module|Shop.M\0", "beehive:1|module|Shop\0M", "beehive:1\0|module|Shop.M", "beehive:1|module|Shop.M|level=basic\0"] {
            guard case .failure(let diagnostic) = RecordParser.parse(bytes: Array(text.utf8), origin: origin) else {
                Issue.record("accepted \(text.debugDescription)")
                continue
            }
            #expect(diagnostic.kind.name == "malformedRecord", "\(text.debugDescription): \(diagnostic)")
        }
    }
}
