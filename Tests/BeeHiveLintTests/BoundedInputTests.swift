@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

@testable import BeeHiveLint

/// Damaged and hostile input gives lint a typed finding in bounded time and memory, never a trap or a hang.
@Suite struct BoundedInputTests {
    /// A library with one annotated module and a Swift type metadata section of four direct records.
    static let source = """
        #include <beehive.h>
        BeeHiveMod(Bounded.Module)
        __attribute__((used, section("swift5_type_metadata"))) const int metadata[4] = {0, 0, 0, 0};

        """

    /// Repeat counts in a mangled name are bounded by the bytes left to fold the repeated nodes: a 13-byte name
    /// asking for 16,777,215 copies is refused at once instead of filling memory.
    @Test(.timeLimit(.minutes(10)))
    func mangledNameRepeatCountsAreBoundedByTheInput() {
        #expect(SwiftMangledName.type("1aA16777215aA") == nil)
        #expect(SwiftMangledName.type("1aA16777215a16777215a16777215a16777215aA") == nil)
        #expect(SwiftMangledName.type(String(repeating: "1aA9999999a", count: 300) + "A") == nil)
        #expect(SwiftMangledName.type("4Demo4ImplV") == SwiftTypePath(module: "Demo", components: [.init(name: "Impl", kind: .struct)]))
    }

    @Test(.timeLimit(.minutes(10)))
    func recordWithAHugeRepeatCountIsAnUnreadableName() throws {
        let library = try GeneratedELF(source: Self.source + """
            __attribute__((used, retain, section("beehive_mods"), aligned(1))) static const char hostile[] =
                "beehive:1|module|1aA16777215aA";

            """)
        let path = try library.write()
        defer { unlink(path) }
        let clock = ContinuousClock()
        var report: LintReport?
        let elapsed = clock.measure { report = Linter.lint(files: [path]) }
        let kinds = report?.findings.map(\.kind) ?? []
        #expect(kinds.contains(.unreadableTypeName(role: .module, name: "1aA16777215aA")), "\(kinds)")
        // Generous on a loaded machine; before the bound this took 38 s and 414 MB.
        #expect(elapsed < .seconds(5))
    }

    @Test(.timeLimit(.minutes(10)), arguments: [
        // (sh_addr, sh_size, what the finding says)
        (UInt64.max - 8, nil, "passes the end of the address space"),
        (nil, UInt64.max - 3, "passes the end of the address space"),
        (nil, UInt64(1) << 40, "which the file does not hold"),
        (nil, UInt64(1) << 63, "which the file does not hold"),
        (UInt64(1) << 63, UInt64(1) << 63, "passes the end of the address space"),
    ] as [(UInt64?, UInt64?, String)])
    func damagedMetadataSectionHeaderIsATypedFinding(address: UInt64?, size: UInt64?, expected: String) throws {
        var library = try GeneratedELF(source: Self.source)
        let index = try library.sectionIndex(named: "swift5_type_metadata")
        if let address { library.setSection(index, .address, to: address) }
        if let size { library.setSection(index, .size, to: size) }
        let path = try library.write()
        defer { unlink(path) }
        let report = Linter.lint(files: [path])
        let damage = report.findings.compactMap { finding -> String? in
            guard case .damagedTypeMetadata(let section, let reason) = finding.kind else { return nil }
            return "\(section): \(reason)"
        }
        #expect(damage.count == 1, "\(report)")
        #expect(damage.first?.hasPrefix("swift5_type_metadata: ") == true)
        #expect(damage.first?.contains(expected) == true, "\(damage)")
        // Sizes print unsigned.
        if let size { #expect(report.description.contains("\(size) bytes")) }
        #expect(report.recordCount == 1)
    }

    /// Linkers leave empty metadata sections (the demo's libReviews.so has a 0-byte swift5_protocols).
    @Test(arguments: [false, true])
    func intactMetadataSectionGivesNoDamage(empty: Bool) throws {
        var library = try GeneratedELF(source: Self.source)
        if empty { library.setSection(try library.sectionIndex(named: "swift5_type_metadata"), .size, to: 0) }
        let path = try library.write()
        defer { unlink(path) }
        let report = Linter.lint(files: [path])
        #expect(report.recordCount == 1)
        #expect(report.findings.map(\.kind) == [.typeNotFound(role: .module, name: "Bounded.Module", suggestion: nil)])
    }

    /// `e_shstrndx` set to SHN_XINDEX with the real index in the first section header's sh_link, as linkers
    /// write it when there are 65,280 sections or more: the records are still read.
    @Test(.timeLimit(.minutes(10)))
    func sectionNameTableIndexThroughXINDEXIsFollowed() throws {
        var library = try GeneratedELF(source: Self.source)
        let names = library.read(at: GeneratedELF.sectionNameTableIndexOffset, width: 2)
        library.write(0xFFFF, at: GeneratedELF.sectionNameTableIndexOffset, width: 2)
        library.setSection(0, .link, to: names)
        let path = try library.write()
        defer { unlink(path) }
        let report = Linter.lint(files: [path])
        #expect(report.recordCount == 1, "\(report)")
        #expect(report.findings.map(\.kind) == [.typeNotFound(role: .module, name: "Bounded.Module", suggestion: nil)])
    }

    @Test(.timeLimit(.minutes(10)))
    func sectionNameTableIndexZeroIsReported() throws {
        var library = try GeneratedELF(source: Self.source)
        library.write(0, at: GeneratedELF.sectionNameTableIndexOffset, width: 2)
        let path = try library.write()
        defer { unlink(path) }
        let report = Linter.lint(files: [path])
        #expect(!report.passed)
        guard case .registry(.malformedObject(let reason)) = report.findings.first?.kind else {
            Issue.record("expected a malformedObject finding, got \(report)")
            return
        }
        #expect(reason.contains("e_shstrndx is 0"))
    }

    /// A FIFO without a writer would block a plain open() forever, and a UNIX socket cannot be opened at all;
    /// lint and its own ELF reader name what each is.
    @Test(.timeLimit(.minutes(10)))
    func specialFilesAreNamedWithoutBlocking() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-lint-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appending(path: "fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let socketPath = directory.appending(path: "socket").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        try #require(pathBytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        for (path, kind) in [
            (fifo, "a FIFO (named pipe)"), (socketPath, "a socket"), (directory.path, "a directory"), ("/dev/null", "a character device"),
        ] {
            let report = Linter.lint(files: [path])
            #expect(report.findings.map(\.kind) == [.registry(.notRegularFile(fileKind: kind))], "\(path)")
            #expect(throws: ELFFile.OpenError.self) { try ELFFile(path: path) }
            do {
                _ = try ELFFile(path: path)
            } catch {
                #expect(error.reason.contains(kind))
            }
        }
    }

    /// The banded edit distance agrees with the full one on names of every length difference.
    @Test func editDistanceIsBanded() {
        #expect(TypeInventory.editDistance("abc", "abd", limit: 2) == 1)
        #expect(TypeInventory.editDistance("abcdef", "badcfe", limit: 2) == nil)
        #expect(TypeInventory.editDistance("kitten", "sitting", limit: 2) == nil)
        #expect(TypeInventory.editDistance("kitten", "sitten", limit: 2) == 1)
        #expect(TypeInventory.editDistance("Shop.Cart", "Shop.Carts", limit: 2) == 1)
        #expect(TypeInventory.editDistance("ab", "", limit: 2) == 2)
        let long = String(repeating: "x", count: 100_000)
        #expect(TypeInventory.editDistance(long, long + "y", limit: 2) == 1)
    }
}
