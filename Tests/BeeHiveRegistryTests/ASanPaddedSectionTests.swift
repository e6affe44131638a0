@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// AddressSanitizer pads instrumented globals with a red zone of zeros up to the next 32 bytes, so every record
/// in an instrumented section is followed by a run of NULs. clang leaves sections named like C identifiers
/// alone (their __start_/__stop_ symbols would break), so it does not pad the annotation sections; gcc pads them
/// when told to with `-fsanitize-sections`. Discovery must read exactly the same records either way.
@Suite struct ASanPaddedSectionTests {
    static let sections = ["beehive_mods", "beehive_services", "beehive_routes"]

    @Test func recordsPaddedByGCCAddressSanitizerAreReadExactly() throws {
        let bytes = try TestLibrary.build(
            CorruptELFTests.source, compiler: "gcc",
            flags: ["-fsanitize=address", "-fsanitize-sections=\(Self.sections.joined(separator: ","))"])
        let image = try ELFImage(bytes)
        let recordBytes = CorruptELFTests.validRecordTexts.reduce(0) { $0 + $1.utf8.count + 1 }
        let sectionBytes = try Self.sections.reduce(0) { try $0 + Int(image.section(image.sectionIndex(named: $1), .size)) }
        // Otherwise the test would not be testing padding.
        #expect(sectionBytes >= 2 * recordBytes, "sections of \(sectionBytes) bytes for \(recordBytes) bytes of records: not padded")

        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, _) = try TestLibrary.readAnnotations(of: bytes, in: directory)
        #expect(result.isAnnotated)
        #expect(result.records.count == CorruptELFTests.validRecordTexts.count)
        #expect(Set(result.records.map(\.text)) == CorruptELFTests.validRecordTexts)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }
}
