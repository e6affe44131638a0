import Foundation
import Glibc
import Testing

@testable import BeeHiveLint

/// `beehive lint --inputs`: records that the linker dropped are reported with their input and cause. The
/// library is linked by clang with lld from objects and an archive built on the fly.
@Suite(.timeLimit(.minutes(10)))
struct LinkCheckTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "beehive-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try write("main.c", """
            #include <beehive.h>
            BeeHiveMod(Link.Main)
            int pulled(void);
            int entry(void) { return pulled(); }

            """)
        try write("pulled.c", """
            #include <beehive.h>
            BeeHiveMod(Link.Pulled)
            int pulled(void) { return 2; }

            """)
        try write("unpulled.c", """
            #include <beehive.h>
            BeeHiveMod(Link.Unpulled)
            BeeHiveService(Link.Proto, Link.Impl)
            int unpulled(void) { return 1; }

            """)
        // A record written by hand without `retain`, as older headers or hand-made sections have them.
        try write("unretained.c", """
            __attribute__((used, section("beehive_mods"), aligned(1))) static const char record[] =
                "beehive:1|module|Link.Collected";
            int kept(void) { return 3; }

            """)
        for name in ["main", "pulled", "unpulled", "unretained"] {
            try run("clang", "-c", "-fPIC", "-ffunction-sections", "-fdata-sections", "-I", GeneratedELF.includeDirectory.path,
                "-o", path("\(name).o"), path("\(name).c"))
        }
        try run("ar", "rcs", path("libparts.a"), path("pulled.o"), path("unpulled.o"))
    }

    private func path(_ name: String) -> String { directory.appending(path: name).path }

    private func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appending(path: name), atomically: true, encoding: .utf8)
    }

    private func run(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GeneratedELF.Failure(description: "\(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
    }

    private func link(_ output: String, _ inputs: [String], gcSections: Bool) throws {
        let arguments = ["clang", "-shared", "-nostdlib", "-fuse-ld=lld"] + (gcSections ? ["-Wl,--gc-sections"] : [])
            + ["-o", path(output)] + inputs.map(path)
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw GeneratedELF.Failure(description: "link of \(output) failed") }
    }

    private func losses(_ report: LintReport) -> [String: LintFinding.LinkLoss] {
        var losses: [String: LintFinding.LinkLoss] = [:]
        for finding in report.findings {
            if case .lostAtLink(_, let cause) = finding.kind, let record = finding.record { losses[record] = cause }
        }
        return losses
    }

    @Test func archiveMemberNeverPulledIsReported() throws {
        try link("liblinked.so", ["main.o", "libparts.a"], gcSections: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Linter.lint(files: [path("liblinked.so")], inputs: [path("main.o"), path("libparts.a")])
        #expect(losses(report) == [
            "beehive:1|module|Link.Unpulled": .memberNotPulled,
            "beehive:1|service|Link.Proto|Link.Impl": .memberNotPulled,
        ])
        let finding = try #require(report.findings.first { if case .lostAtLink = $0.kind { true } else { false } })
        #expect(finding.objectPath == "\(path("libparts.a"))(unpulled.o)")
        #expect(finding.description.contains("never pulled this archive member"))
        #expect(finding.description.contains("--whole-archive"))
    }

    @Test func sectionCollectedWithoutRetainIsReported() throws {
        try link("libcollected.so", ["main.o", "pulled.o", "unretained.o"], gcSections: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Linter.lint(
            files: [path("libcollected.so")], inputs: [path("main.o"), path("pulled.o"), path("unretained.o")])
        #expect(losses(report) == ["beehive:1|module|Link.Collected": .sectionCollected(retained: false)])
        #expect(report.description.contains("\(path("unretained.o")) [beehive_mods]: error: record of \(path("unretained.o")) is not in the linked file: --gc-sections collected its section, which was built without 'retain'"))
    }

    @Test func everyRecordKeptIsNoFinding() throws {
        try link("libwhole.so", ["main.o", "pulled.o", "unretained.o"], gcSections: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Linter.lint(files: [path("libwhole.so")], inputs: [path("main.o"), path("pulled.o"), path("unretained.o")])
        #expect(losses(report).isEmpty, "\(report)")
    }

    @Test func unreadableInputIsAFinding() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("notes.txt", "not an object")
        let report = Linter.lint(files: [], inputs: [path("notes.txt"), directory.path])
        let reasons = report.findings.compactMap { finding -> String? in
            if case .unreadableBinary(let reason) = finding.kind { return reason }
            return nil
        }
        #expect(reasons == ["neither an ELF object nor a static archive", "it is a directory, not an object file"])
    }
}
