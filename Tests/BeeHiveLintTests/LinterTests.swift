@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

@testable import BeeHiveLint

@Suite struct LinterTests {
    @Test func missingFileIsAFinding() {
        let report = Linter.lint(files: ["/nonexistent/beehive-lint-test"])
        #expect(!report.passed)
        #expect(report.findings.map(\.objectPath) == ["/nonexistent/beehive-lint-test"])
    }

    @Test func fileThatIsNotELFIsAFinding() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "beehive-lint-\(UUID().uuidString).txt").path
        try Data("not an object file".utf8).write(to: URL(filePath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = Linter.lint(files: [path, path])
        #expect(report.files == [path])
        #expect(report.findings == [LintFinding(.registry(.notELF), objectPath: path)])
        #expect(report.description.hasPrefix("\(path): error: not an ELF file\n"))
    }

    @Test func findingNamesFileSectionAndRecord() {
        let finding = LintFinding(
            .typeNotFound(role: .module, name: "Shop.CartModuel", suggestion: "Shop.CartModule"), objectPath: "/bin/shop",
            section: "beehive_mods", record: "beehive:1|module|Shop.CartModuel")
        #expect(
            finding.description
                == #"/bin/shop [beehive_mods]: error: module type 'Shop.CartModuel' is not defined in any linted file (did you mean 'Shop.CartModule'?); if a library defines it, lint that library too: "beehive:1|module|Shop.CartModuel""#)
    }
}
