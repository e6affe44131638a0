import BeeHiveRegistry
import Foundation
import Testing

/// Offline reading of files that are not annotated objects; annotated fixtures are covered end to end in
/// BeeHiveIntegrationTests.
@Suite struct SectionReaderTests {
    @Test func missingFileIsUnreadable() {
        let result = SectionReader.readFile(atPath: "/nonexistent/libShop.so")
        #expect(result.records.isEmpty && !result.isAnnotated)
        #expect(result.diagnostics.map(\.kind) == [.unreadableObject(reason: "No such file or directory")])
        #expect(result.diagnostics.first?.objectPath == "/nonexistent/libShop.so")
    }

    @Test func textFileIsNotELF() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "beehive-not-elf-\(UUID().uuidString).so")
        try Data("not an ELF file\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(SectionReader.readFile(atPath: file.path).diagnostics.map(\.kind) == [.notELF])
    }

    @Test func truncatedELFIsReportedNotTrusted() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "beehive-truncated-\(UUID().uuidString).so")
        let header = try Data(contentsOf: URL(filePath: "/proc/self/exe")).prefix(200)
        try header.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = SectionReader.readFile(atPath: file.path)
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.map(\.kind) == [.unreadableObject(reason: "the section header table lies outside the file (truncated?)")])
    }

    @Test func unannotatedExecutableHasNothing() {
        // The test runner itself: ELF, with section headers, without the BeeHive note or sections.
        let result = SectionReader.readFile(atPath: "/proc/self/exe")
        #expect(result.records.isEmpty && result.diagnostics.isEmpty && !result.isAnnotated)
        #expect(result.object.buildID != nil)
    }

    @Test func constructorRanBeforeTheTests() {
        #expect(SectionReader.constructorNanoseconds > 0)
    }
}
