@_spi(BeeHiveInternals) @_spi(Benchmarks) import BeeHiveRegistry
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        // A system program: ELF, with section headers, without the BeeHive note or sections.
        let result = SectionReader.readFile(atPath: "/usr/bin/env")
        #expect(result.records.isEmpty && result.diagnostics.isEmpty && !result.isAnnotated)
        #expect(result.object.buildID != nil)
    }

    /// The build-id is lowercase hex, two digits a byte, as `readelf -n` prints it.
    @Test func buildIDReadsAsReadelfPrintsIt() throws {
        let readelf = Process()
        readelf.executableURL = URL(filePath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-n", "/usr/bin/env"]
        let output = Pipe()
        readelf.standardOutput = output
        try readelf.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.contains("Build ID:") })
        let expected = line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(SectionReader.readFile(atPath: "/usr/bin/env").object.buildID == expected)
    }

    /// The test runner carries one Swift macro annotation (TypeReferenceTests): read offline, its file gives the
    /// record and no diagnostic; the type-reference section, whose pointers are relocated in memory only, is
    /// never read from a file.
    @Test func macroAnnotatedRunnerReadsBackItsRecordOffline() {
        let result = SectionReader.readFile(atPath: "/proc/self/exe")
        #expect(result.isAnnotated && result.diagnostics.isEmpty)
        #expect(result.records.map(\.text).contains {
            $0.hasPrefix("beehive:1|service|BeeHiveServicesTests.ReferencedService|BeeHiveServicesTests.ReferencedServiceImpl")
        })
    }

    @Test func constructorRanBeforeTheTests() {
        #expect(SectionReader.constructorNanoseconds > 0)
    }

    /// Paths that are not regular files get a diagnostic naming what they are, and never block: a FIFO without a
    /// writer would hang a plain open().
    @Test(.timeLimit(.minutes(10)))
    func specialFilesAreNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appending(path: "fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let socketPath = directory.appending(path: "socket").path
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: socketPath.utf8.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let expected: [(String, String)] = [
            (directory.path, "a directory"), (fifo, "a FIFO (named pipe)"), (socketPath, "a socket"),
            ("/dev/null", "a character device"),
        ]
        for (path, kind) in expected {
            let result = SectionReader.readFile(atPath: path)
            #expect(result.diagnostics.map(\.kind) == [.notRegularFile(fileKind: kind)], "\(path)")
            #expect(result.diagnostics.first?.message.contains(kind) == true)
        }
    }
}
