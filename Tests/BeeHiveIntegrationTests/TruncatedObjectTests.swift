@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import Foundation
import Testing

/// A library the app loads with `dlopen` and that is cut short on disk before the next refresh: its memory is no
/// longer backed by its file, and touching it raises SIGBUS. The refresh reports it by path instead, and the
/// process lives.
///
/// The scenario runs in a child process (this test binary again, running only this test): there no other test
/// refreshes between the `dlopen` and the truncation, and a SIGBUS ends the child, not the test run. The child
/// exits once it has printed what the refresh reported, with `_exit`: the truncated library's destructors cannot
/// run at exit any more than its records can be read.
@Suite struct TruncatedObjectTests {
    static let childVariable = "BEEHIVE_TRUNCATED_LIBRARY"
    static let marker = "truncated-object-diagnostic: "

    @Test func aLibraryTruncatedBeforeItsFirstReadIsReportedAndTheProcessLives() throws {
        if let library = ProcessInfo.processInfo.environment[Self.childVariable] {
            Self.runChild(library)
        }
        let built = try SystemTools.cPlugin("hub.c", defines: ["HUB_MODULE=BeeHiveIntegrationTests.TruncatedModule"])
        let folder = try FixtureHost.temporaryDirectory("truncated")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try SystemTools.copy(built, into: folder)

        let output = folder.appending(path: "child.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let child = Process()
        child.executableURL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "aLibraryTruncatedBeforeItsFirstRead"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = library.path
        child.environment = environment
        let file = try FileHandle(forWritingTo: output)
        child.standardOutput = file
        child.standardError = file
        child.standardInput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        try file.close()
        let printed = try String(contentsOf: output, encoding: .utf8)
        #expect(child.terminationReason == .exit, "the child died of signal \(child.terminationStatus):\n\(printed)")
        #expect(child.terminationStatus == 0, "\(printed)")
        let reported = printed.split(separator: "\n").filter { $0.hasPrefix(Self.marker) }
        #expect(reported.count == 1, "\(printed)")
        #expect(reported.allSatisfy { $0.contains(library.path) && $0.contains("no longer backed by its file") })
    }

    /// The first walk, the constructor's, reads as carefully as the later ones: a C program loads the library,
    /// cuts it short, then loads the core with `dlopen`, whose constructor walks the objects already loaded.
    @Test func aLibraryTruncatedBeforeTheConstructorsWalkIsReportedAndTheProcessLives() throws {
        let core = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appending(path: "libBeeHive.so")
        guard FileManager.default.fileExists(atPath: core.path) else {
            throw FixtureBuilder.Failure(description: "no libBeeHive.so next to the test binary; run swift build first")
        }
        let host = try SystemTools.cProgram("first_walk_host.c")
        let built = try SystemTools.cPlugin("hub.c", defines: ["HUB_MODULE=BeeHiveIntegrationTests.TruncatedModule"])
        let folder = try FixtureHost.temporaryDirectory("truncated-first-walk")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try SystemTools.copy(built, into: folder)

        let run = try FixtureBuilder.run(host, [library.path, core.path])
        #expect(run.status == 0, "the host ended with \(run.status) (a signal gives its number; SIGBUS is 7):\n\(run.output)")
        #expect(run.standardOutput.contains("first walk: \(library.path) status 1: its mapped memory is no longer backed"),
                "\(run.output)")
    }

    /// In the child: loads the library, cuts it to nothing, refreshes, prints what the refresh reported about it,
    /// and exits 0 when that names the library.
    private static func runChild(_ library: String) -> Never {
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(URL(filePath: library))))
        _ = hive.refresh()
        guard dlopen(library, RTLD_NOW | RTLD_LOCAL) != nil else {
            print("cannot load \(library): \(String(cString: dlerror()))")
            fflush(nil)
            _exit(2)
        }
        guard truncate(library, 0) == 0 else {
            print("cannot truncate \(library): \(String(cString: strerror(errno)))")
            fflush(nil)
            _exit(2)
        }
        let found = hive.refresh().map(\.description).filter { $0.contains(library) }
        for line in found { print(marker + line) }
        fflush(nil)
        _exit(found.isEmpty ? 3 : 0)
    }
}
