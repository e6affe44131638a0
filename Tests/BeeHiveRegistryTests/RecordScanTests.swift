@_spi(BeeHiveInternals) import BeeHiveRegistry
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

    /// Type names are checked eight bytes at a time: names of 1 to 24 bytes from an alphabet of allowed,
    /// refused and '.' bytes, at every place in a word (the header before them has no fixed length here, as a
    /// service's second name shows), are accepted exactly when a byte-by-byte reading of the rule accepts them.
    @Test func typeNamesAtEveryLengthAndPlace() {
        let alphabet = Array("aZ09_$..-@[`{/: ~".utf8) + [0x7F, 0x01]
        func isTypeName(_ name: [UInt8]) -> Bool {
            name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { component in
                !component.isEmpty && component.allSatisfy { byte in
                    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                }
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var accepted = 0
        for trial in 0..<4000 {
            let length = 1 + trial % 24
            // Mostly letters, so that valid names of every length occur.
            let name = (0..<length).map { _ in next(3) == 0 ? alphabet[next(alphabet.count)] : UInt8(ascii: "a") }
            let padding = String(repeating: "P", count: trial % 8)
            let text = Array("beehive:1|service|S\(padding)|".utf8) + name
            let result = split(text + [0], section: SectionName.services)
            let expected = isTypeName(name)
            #expect(result.records.count == (expected ? 1 : 0), "\(String(decoding: name, as: UTF8.self).debugDescription)")
            if expected { accepted += 1 }
        }
        #expect(accepted > 500 && accepted < 3500)
    }

    /// Module records without attributes have a fast path that finds the end and checks the name in one pass;
    /// every record it accepts or declines must be read as a record handed over on its own is read. Names of 0
    /// to 30 bytes over allowed, refused, separator, dot and non-ASCII bytes, one to three NULs apart, at every
    /// place in a word, with the last record near the section's end or cut short of its NUL.
    @Test func bareModuleRecordsAgreeWithTheGeneralParser() {
        let alphabet = Array("aZ09_$..|=-@ ~".utf8) + [0x7F, 0x01, 0xC3, 0xA9, 0xFF]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let origin = RecordOrigin(objectPath: "/lib/libShop.so", section: SectionName.modules, offset: 0)
        var accepted = 0
        for trial in 0..<2000 {
            var bytes = [UInt8](repeating: 0, count: trial % 8)
            var expected: [(text: String, diagnostic: String?)] = []
            var (lastRecordStart, lastRecordEnd) = (0, 0)
            for _ in 0..<(1 + next(6)) {
                let length = next(31)
                // Mostly letters and dots, so that valid names and names whose only fault is two dots across
                // the words the fast path reads both occur.
                let name = (0..<length).map { _ -> UInt8 in
                    switch next(16) {
                    case 0: alphabet[next(alphabet.count)]
                    case 1, 2: UInt8(ascii: ".")
                    default: UInt8(ascii: "m")
                    }
                }
                let record = Array("beehive:1|module|".utf8) + name
                switch RecordParser.parse(bytes: record, origin: origin) {
                case .success(let parsed): expected.append((parsed.text, nil))
                case .failure(let diagnostic): expected.append((diagnostic.record ?? "", diagnostic.kind.name))
                }
                lastRecordStart = bytes.count
                bytes += record
                lastRecordEnd = bytes.count
                bytes += [UInt8](repeating: 0, count: 1 + next(3))
            }
            let result = split(bytes)
            #expect(result.records.map(\.text) == expected.filter { $0.diagnostic == nil }.map(\.text), "trial \(trial)")
            #expect(result.diagnostics.map(\.kind.name) == expected.compactMap(\.diagnostic), "trial \(trial)")
            #expect(result.diagnostics.map(\.record) == expected.filter { $0.diagnostic != nil }.map(\.text), "trial \(trial)")
            accepted += result.records.count
            // The same section cut inside its last record: that record has no NUL, and the ones before it are
            // read as before.
            let cut = lastRecordEnd - next(min(4, lastRecordEnd - lastRecordStart))
            let shortened = split(Array(bytes[..<cut]))
            let before = expected.dropLast()
            #expect(shortened.records.map(\.text) == before.filter { $0.diagnostic == nil }.map(\.text), "trial \(trial) cut")
            #expect(shortened.diagnostics.dropLast().map(\.kind.name) == before.compactMap(\.diagnostic), "trial \(trial) cut")
            #expect(shortened.diagnostics.last.map { "\($0.kind)" }?.contains("not NUL-terminated") == true, "trial \(trial) cut")
        }
        #expect(accepted > 1000, "\(accepted) records accepted")
    }
}
