@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// Damaged files read offline give diagnostics, never a crash and never garbage records. Each test corrupts a
/// small annotated shared library compiled on the fly with clang.
@Suite struct CorruptELFTests {
    /// The valid library's records, by section.
    static let source = """
        #include <beehive.h>
        BeeHiveMod(Corrupt.FirstModule)
        BeeHiveModule(Corrupt.SecondModule, basic, 10, async)
        BeeHiveService(Corrupt.Proto, Corrupt.Impl)
        BeeHiveRoute("/user/:id", Corrupt.UserHandler)

        """
    static let validRecordTexts: Set<String> = [
        "beehive:1|module|Corrupt.FirstModule",
        "beehive:1|module|Corrupt.SecondModule|level=basic|priority=10|async=1",
        "beehive:1|service|Corrupt.Proto|Corrupt.Impl",
        "beehive:1|route|/user/:id|Corrupt.UserHandler",
    ]

    /// Built once per test process.
    static let library: Result<[UInt8], ELFImage.Failure> = Result { () throws(ELFImage.Failure) in try TestLibrary.build(source) }

    let valid: ELFImage

    init() throws {
        valid = try ELFImage(Self.library.get())
    }

    // MARK: The baseline

    @Test func validLibraryGivesEveryRecordAndNoDiagnostic() throws {
        let result = try read(valid.bytes)
        #expect(result.isAnnotated)
        #expect(Set(result.records.map(\.text)) == Self.validRecordTexts)
        #expect(result.records.count == 4)
        #expect(result.diagnostics.isEmpty)
    }

    // MARK: Not ELF at all

    @Test func emptyFileIsNotELF() throws {
        let result = try read([])
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.notELF])
    }

    @Test func textFileIsNotELF() throws {
        let result = try read(Array("#!/bin/sh\necho not an object file\n".utf8))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.notELF])
    }

    // MARK: Truncated files

    /// Shorter than the identification bytes: libelf does not recognise the file at all.
    @Test(arguments: [1, 4, 15])
    func fileCutInsideTheIdentIsNotELF(length: Int) throws {
        let result = try read(Array(valid.bytes.prefix(length)))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.notELF])
    }

    /// Whether libelf calls these "not ELF" or "invalid ELF data" depends on how it reads the file (mapped or
    /// read), so either is right; what matters is one diagnostic and no records.
    @Test(arguments: [16, 40, 63])
    func fileCutInsideTheHeaderIsRejected(length: Int) throws {
        let result = try read(Array(valid.bytes.prefix(length)))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.kind == .notELF || unreadableReason(result) != nil, "\(result.diagnostics)")
    }

    /// The section table sits at the end of the file, so any cut loses it: a damaged file, not a stripped one.
    enum Cut: String, CaseIterable, Sendable {
        case afterTheFileHeader, inTheMiddle, beforeTheLastByte

        func length(of count: Int) -> Int {
            switch self {
            case .afterTheFileHeader: 64
            case .inTheMiddle: count / 2
            case .beforeTheLastByte: count - 1
            }
        }
    }

    @Test(arguments: Cut.allCases)
    func truncatedFileReportsItsMissingSectionTable(cut: Cut) throws {
        let length = cut.length(of: valid.bytes.count)
        let result = try read(Array(valid.bytes.prefix(length)))
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("truncated") == true, "\(result.diagnostics)")
    }

    // MARK: A bad e_shoff

    @Test(arguments: [UInt64.max, UInt64.max - 63, 1 << 40])
    func sectionTableOffsetPastTheEndIsReported(offset: UInt64) throws {
        var image = valid
        image.write(offset, at: ELFImage.Header.sectionHeaderOffset, width: 8)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("outside the file") == true, "\(result.diagnostics)")
    }

    @Test func sectionTableOffsetJustPastTheEndIsReported() throws {
        var image = valid
        image.write(UInt64(image.bytes.count), at: ELFImage.Header.sectionHeaderOffset, width: 8)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("outside the file") == true, "\(result.diagnostics)")
    }

    /// e_shoff pointing at the program headers: the bytes there are not a section table.
    @Test func sectionTableOffsetIntoOtherDataIsReported() throws {
        var image = valid
        image.write(image.read(at: ELFImage.Header.programHeaderOffset, width: 8), at: ELFImage.Header.sectionHeaderOffset, width: 8)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("damaged") == true, "\(result.diagnostics)")
    }

    @Test func zeroedSectionTableIsReported() throws {
        var image = valid
        let start = image.sectionHeaderOffset(0)
        let end = image.sectionHeaderOffset(image.sectionCount)
        image.bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result) != nil)
    }

    @Test func sectionNameTableIndexOutOfRangeIsReported() throws {
        var image = valid
        image.write(0xFFF0, at: ELFImage.Header.sectionNameTableIndex, width: 2)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("name table") == true, "\(result.diagnostics)")
    }

    @Test(.timeLimit(.minutes(10)))
    func flippedByteOrderFlagIsNamed() throws {
        var image = valid
        image.bytes[5] = 2  // e_ident[EI_DATA]: ELFDATA2MSB on a little-endian file
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        guard result.diagnostics.count == 1, case .malformedObject(let reason) = result.diagnostics[0].kind else {
            Issue.record("expected one malformedObject diagnostic, got \(result.diagnostics)")
            return
        }
        #expect(reason.contains("byte-order flag") && reason.contains("says big-endian"))
    }

    @Test(.timeLimit(.minutes(10)))
    func sectionNameTableIndexZeroIsReported() throws {
        var image = valid
        image.write(0, at: ELFImage.Header.sectionNameTableIndex, width: 2)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        guard result.diagnostics.count == 1, case .malformedObject(let reason) = result.diagnostics[0].kind else {
            Issue.record("expected one malformedObject diagnostic, got \(result.diagnostics)")
            return
        }
        #expect(reason.contains("e_shstrndx is 0"))
    }

    @Test func hugeSectionSizeIsPrintedUnsigned() {
        let diagnostic = RegistryDiagnostic(.sectionTooLarge(size: Int(bitPattern: UInt.max)))
        #expect(diagnostic.message.contains("18446744073709551615 bytes"))
    }

    @Test func sectionNameOutsideTheNameTableIsReported() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .name, to: 0xFF_FFFF)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(unreadableReason(result)?.contains("name") == true, "\(result.diagnostics)")
    }

    /// No section table at all, as `llvm-objcopy --strip-sections` leaves it: a warning, not damage.
    @Test func fileWithoutSectionTableIsReportedAsStripped() throws {
        var image = valid
        image.write(0, at: ELFImage.Header.sectionHeaderOffset, width: 8)
        image.write(0, at: ELFImage.Header.sectionHeaderCount, width: 2)
        image.write(0, at: ELFImage.Header.sectionNameTableIndex, width: 2)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.sectionHeadersMissing])
    }

    // MARK: Overlapping sections

    /// beehive_services made to cover beehive_mods' bytes: its module records are in the wrong section.
    @Test func sectionOverlappingAnotherGivesMisplacedRecords() throws {
        var image = valid
        let modules = try image.sectionIndex(named: "beehive_mods")
        let services = try image.sectionIndex(named: "beehive_services")
        for field in [ELFImage.SectionField.address, .offset, .size] {
            image.setSection(services, field, to: image.section(modules, field))
        }
        let result = try read(image.bytes)
        #expect(result.records.map(\.kind).filter { $0 == .module }.count == 2)
        #expect(result.records.map(\.kind).filter { $0 == .route }.count == 1)
        #expect(!result.records.contains { $0.kind == .service })
        #expect(result.diagnostics.count == 2)
        for diagnostic in result.diagnostics {
            #expect(diagnostic.kind == .misplacedRecord(kind: .module, expectedSection: "beehive_mods"))
            #expect(diagnostic.section == "beehive_services")
        }
    }

    /// beehive_mods moved over the ELF header: its bytes are not records.
    @Test func sectionOverlappingTheFileHeaderGivesRecordDiagnostics() throws {
        var image = valid
        let modules = try image.sectionIndex(named: "beehive_mods")
        image.setSection(modules, .address, to: 0)
        image.setSection(modules, .offset, to: 0)
        let result = try read(image.bytes)
        #expect(!result.records.contains { $0.kind == .module })
        #expect(result.records.count == 2)
        let moduleDiagnostics = result.diagnostics.filter { $0.section == "beehive_mods" }
        #expect(!moduleDiagnostics.isEmpty)
        #expect(moduleDiagnostics.allSatisfy { isRecordProblem($0.kind) }, "\(moduleDiagnostics)")
    }

    /// beehive_mods' file offset moved onto the section table while its address stays: the bytes read from the
    /// file would not be the bytes mapped at run time.
    @Test func sectionWhoseOffsetDisagreesWithItsAddressIsOutsideItsSegment() throws {
        var image = valid
        let modules = try image.sectionIndex(named: "beehive_mods")
        image.setSection(modules, .offset, to: image.read(at: ELFImage.Header.sectionHeaderOffset, width: 8))
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.kind) == [.sectionOutsideSegment])
        #expect(result.diagnostics.first?.section == "beehive_mods")
    }

    // MARK: A huge sh_size

    @Test(arguments: [1 << 62, 64 << 20 + 1] as [UInt64])
    func hugeSectionSizeIsRefused(size: UInt64) throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .size, to: size)
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.kind) == [.sectionTooLarge(size: Int(size))])
        #expect(result.diagnostics.first?.section == "beehive_mods")
    }

    @Test func maximalSectionSizeIsRefused() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .size, to: .max)
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.count == 1)
        guard case .sectionTooLarge = result.diagnostics.first?.kind else {
            Issue.record("expected sectionTooLarge, got \(result.diagnostics)")
            return
        }
    }

    /// Larger than the file but under the size limit: libelf cannot give its bytes.
    @Test func sectionRunningPastTheEndOfTheFileIsUnreadable() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .size, to: UInt64(image.bytes.count))
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.kind) == [.sectionUnreadable])
    }

    @Test func sectionOffsetThatWrapsAroundIsUnreadable() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .offset, to: .max - 15)
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.kind) == [.sectionUnreadable])
    }

    @Test func sectionWithoutFileBytesIsUnreadable() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .type, to: ELFImage.noBitsSectionType)
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(result.diagnostics.map(\.kind) == [.sectionUnreadable])
    }

    // MARK: A section outside every segment

    @Test func sectionAddressOutsideEverySegmentIsReported() throws {
        var image = valid
        try image.setSection(image.sectionIndex(named: "beehive_mods"), .address, to: 0x7FFF_0000)
        let result = try read(image.bytes)
        #expect(result.records.count == 2)
        #expect(!result.records.contains { $0.kind == .module })
        #expect(result.diagnostics.map(\.kind) == [.sectionOutsideSegment])
        #expect(result.diagnostics.first?.section == "beehive_mods")
    }

    /// The segment that mapped the sections made to end before them.
    @Test func segmentShrunkBeforeItsSectionsLeavesThemOutside() throws {
        var image = valid
        let modules = try image.sectionIndex(named: "beehive_mods")
        let segment = try image.loadSegment(holdingSection: modules)
        let end = image.section(modules, .address) - image.segment(segment, .address)
        image.setSegment(segment, .fileSize, to: end)
        image.setSegment(segment, .memorySize, to: end)
        let result = try read(image.bytes)
        #expect(!result.records.contains { $0.kind == .module })
        #expect(result.diagnostics.contains { $0.kind == .sectionOutsideSegment && $0.section == "beehive_mods" })
        #expect(result.diagnostics.allSatisfy { $0.kind == .sectionOutsideSegment })
    }

    @Test func unreadableProgramHeadersLeaveEverySectionOutside() throws {
        var image = valid
        image.write(1 << 40, at: ELFImage.Header.programHeaderOffset, width: 8)
        let result = try read(image.bytes)
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.count == 3)
        #expect(result.diagnostics.allSatisfy { $0.kind == .sectionOutsideSegment })
    }

    // MARK: Every header byte

    /// Each byte of the file header, the program headers and the section headers set to 0xFF in turn: the reader
    /// returns every time, and a record it returns is one of the valid records, or something is diagnosed.
    @Test func everyCorruptedHeaderByteIsHandled() throws {
        let programHeaders = Int(valid.read(at: ELFImage.Header.programHeaderOffset, width: 8))
        let sectionHeaders = valid.sectionHeaderOffset(0)
        let offsets = Array(0..<64) + Array(programHeaders..<(programHeaders + 56 * valid.segmentCount))
            + Array(sectionHeaders..<valid.sectionHeaderOffset(valid.sectionCount))
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var unexplained: [Int] = []
        for offset in offsets where valid.bytes[offset] != 0xFF {
            var bytes = valid.bytes
            bytes[offset] = 0xFF
            let result = try read(bytes, in: directory)
            let recordsAreValid = result.records.allSatisfy { Self.validRecordTexts.contains($0.text) }
            if !recordsAreValid && result.diagnostics.isEmpty { unexplained.append(offset) }
        }
        #expect(unexplained.isEmpty, "records neither valid nor diagnosed after corrupting bytes at \(unexplained)")
    }

    // MARK: Helpers

    private func isRecordProblem(_ kind: RegistryDiagnostic.Kind) -> Bool {
        switch kind {
        case .malformedRecord, .invalidUTF8, .unknownVersion, .oversizedRecord, .misplacedRecord: true
        default: false
        }
    }

    private func unreadableReason(_ result: ObjectAnnotations) -> String? {
        guard result.diagnostics.count == 1, case .unreadableObject(let reason) = result.diagnostics[0].kind else {
            return nil
        }
        return reason
    }

    private func read(_ bytes: [UInt8]) throws -> ObjectAnnotations {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try read(bytes, in: directory)
    }

    private func read(_ bytes: [UInt8], in directory: URL) throws -> ObjectAnnotations {
        let (result, path) = try TestLibrary.readAnnotations(of: bytes, in: directory)
        #expect(result.object.path == path)
        return result
    }
}
