@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Logging
import Testing

/// What a host logged, level and message.
final class CapturedLog: Sendable {
    private let lines = Locked<[(level: Logger.Level, message: String)]>([])

    var logger: Logger { Logger(label: "test") { _ in Handler(log: self) } }

    func messages(at level: Logger.Level) -> [String] { lines.withLock { $0.filter { $0.level == level }.map(\.message) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lines.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}

/// One policy for refused plugin folders and files, through `HiveHost.start()` with `BEEHIVE_PLUGIN_PATH`: each
/// refusal is a diagnostic naming the path and the fix, which fails the start with `.failOnProblems` and is
/// logged as an error with `.logProblems`; a missing folder is a warning in both.
@Suite(.timeLimit(.minutes(10))) struct PluginFolderPolicyTests {
    /// A folder holding one good plugin and, made by `spoil`, one bad file or a bad folder mode.
    private static func folder(_ name: String, _ spoil: (DeferredPluginFolder) throws -> String) throws -> (DeferredPluginFolder, refused: String) {
        var folder = try DeferredPluginFolder("policy-\(name)")
        try folder.add("policy-\(name)-good", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        return (folder, try spoil(folder))
    }

    private static func start(
        _ folders: [String], _ check: HiveHost.StartupCheck, environment extra: [String: String] = [:]
    ) async -> (HiveHost, CapturedLog, Result<Void, HiveError>) {
        let log = CapturedLog()
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        let host = HiveHost(
            hive: hive, startupCheck: check, logger: log.logger,
            environment: extra.merging([Hive.pluginPathVariable: folders.joined(separator: ":")]) { $1 })
        do {
            try await host.start()
            return (host, log, .success(()))
        } catch {
            return (host, log, .failure(error))
        }
    }

    /// Starts in both modes on the folder: `.failOnProblems` fails naming the path and `fix`, `.logProblems`
    /// starts, logging the same as an error, and leaves the refused path out.
    private static func expectRefused(
        _ path: String, role: PluginAccessError.Role, fix: String, in folder: DeferredPluginFolder,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let (failing, _, failed) = await start([folder.path], .failOnProblems)
        guard case .failure(.invalidAnnotations(let problems)) = failed else {
            Issue.record("start should fail on \(path), got \(failed)", sourceLocation: sourceLocation)
            return
        }
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        guard case .pluginRefused(let refusal)? = problems.first else {
            Issue.record("not a refusal: \(problems)", sourceLocation: sourceLocation)
            return
        }
        #expect(refusal.path == path && refusal.role == role, sourceLocation: sourceLocation)
        #expect("\(refusal)".contains(path) && "\(refusal)".contains(fix), "\(refusal)", sourceLocation: sourceLocation)
        #expect("\(HiveError.invalidAnnotations(problems))".contains(path), sourceLocation: sourceLocation)
        #expect(!failing.hive.modules.isStarted, sourceLocation: sourceLocation)

        let (logging, log, started) = await start([folder.path], .logProblems)
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try started.get() }
        #expect(logging.hive.modules.isStarted, sourceLocation: sourceLocation)
        #expect(log.messages(at: .error) == ["\(refusal)"], sourceLocation: sourceLocation)
        #expect(logging.hive.diagnostics.contains { if case .pluginRefused(refusal) = $0 { true } else { false } }, sourceLocation: sourceLocation)
    }

    @Test func aGroupWritableFolderIsRefused() async throws {
        let (folder, refused) = try Self.folder("group-writable") { folder in
            chmod(folder.path, 0o775)
            return folder.path
        }
        defer { folder.remove() }
        await Self.expectRefused(refused, role: .folder, fix: "chmod go-w \(refused)", in: folder)
    }

    @Test func aWorldWritablePluginFileIsRefused() async throws {
        let (folder, refused) = try Self.folder("world-writable") { folder in
            var folder = folder
            try folder.add("policy-world-writable-bad", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
            let path = folder.file("policy-world-writable-bad")
            chmod(path, 0o666)
            return path
        }
        defer { folder.remove() }
        await Self.expectRefused(refused, role: .plugin, fix: "chmod go-w \(refused)", in: folder)
    }

    /// Another user's plugin file (the tests run as root, who may give a file away).
    @Test func aPluginFileOfAnotherUserIsRefused() async throws {
        let (folder, refused) = try Self.folder("foreign-owner") { folder in
            var folder = folder
            try folder.add("policy-foreign-owner-bad", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
            let path = folder.file("policy-foreign-owner-bad")
            #expect(chown(path, 4321, 4321) == 0, "\(String(cString: strerror(errno)))")
            return path
        }
        defer { folder.remove() }
        await Self.expectRefused(refused, role: .plugin, fix: "change its owner", in: folder)
    }

    @Test func aPluginFileThatIsNotELFIsRefused() async throws {
        let (folder, refused) = try Self.folder("not-elf") { folder in
            let path = folder.file("policy-not-elf-bad")
            try Data("not a library\n".utf8).write(to: URL(filePath: path))
            chmod(path, 0o644)
            return path
        }
        defer { folder.remove() }
        await Self.expectRefused(refused, role: .plugin, fix: "remove it from the folder", in: folder)
    }

    /// A plugin whose ELF header says AArch64 (a copy of a plugin of this machine with `e_machine` changed).
    @Test func aPluginFileForAnotherArchitectureIsRefused() async throws {
        let (folder, refused) = try Self.folder("other-architecture") { folder in
            var folder = folder
            try folder.add("policy-other-architecture-bad", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
            let path = folder.file("policy-other-architecture-bad")
            var bytes = [UInt8](try Data(contentsOf: URL(filePath: path)))
            let ownMachine = UInt16(bytes[18]) | UInt16(bytes[19]) << 8
            let other: UInt16 = ownMachine == 183 ? 62 : 183  // EM_AARCH64, or EM_X86_64 on an AArch64 host
            bytes[18] = UInt8(other & 0xFF)
            bytes[19] = UInt8(other >> 8)
            try Data(bytes).write(to: URL(filePath: path))
            return path
        }
        defer { folder.remove() }
        await Self.expectRefused(refused, role: .plugin, fix: "rebuild it for this machine", in: folder)
    }

    /// A folder of `BEEHIVE_PLUGIN_PATH` that does not exist is skipped with a warning in both modes; the
    /// folder after it is still added.
    @Test func aMissingFolderIsAWarning() async throws {
        var folder = try DeferredPluginFolder("policy-after-missing")
        defer { folder.remove() }
        try folder.add("policy-after-missing", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        let missing = folder.path + "-missing"
        for check in [HiveHost.StartupCheck.failOnProblems, .logProblems] {
            let (host, log, started) = await Self.start([missing, folder.path], check)
            #expect(throws: Never.self) { try started.get() }
            #expect(host.hive.modules.isStarted)
            #expect(log.messages(at: .error).isEmpty)
            let warnings = log.messages(at: .warning)
            #expect(warnings.count == 1 && warnings.allSatisfy { $0.contains(missing) && $0.contains("does not exist") }, "\(warnings)")
            #expect(host.hive.diagnostics.contains { if case .pluginFolderMissing(missing) = $0 { true } else { false } })
            #expect(host.hive.services.canCreateService((any DeferredCounter).self))
        }
    }

    /// With neither `XDG_CACHE_HOME` nor `HOME`, the index cache is off, and the host says so once.
    @Test func withoutHomeTheCacheIsOffWithANotice() async throws {
        var folder = try DeferredPluginFolder("policy-no-home")
        defer { folder.remove() }
        try folder.add("policy-no-home", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        let (host, log, started) = await Self.start([folder.path], .failOnProblems, environment: [:])
        #expect(throws: Never.self) { try started.get() }
        #expect(host.hive.modules.isStarted)
        let notices = log.messages(at: .notice).filter { $0.contains("plugin index cache is off") }
        #expect(notices.count == 1 && notices.allSatisfy { $0.contains("XDG_CACHE_HOME") && $0.contains("HOME") })
        // With XDG_CACHE_HOME the cache is there and nothing is said.
        let cacheHome = try FixtureHost.temporaryDirectory("policy-cache-home")
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let (_, quiet, _) = await Self.start([folder.path], .failOnProblems, environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(quiet.messages(at: .notice).filter { $0.contains("plugin index cache") }.isEmpty)
        let written = try FileManager.default.contentsOfDirectory(atPath: cacheHome.appending(path: "beehive").path)
        #expect(written.count == 1 && written.allSatisfy { $0.hasSuffix(".index") })
    }
}
