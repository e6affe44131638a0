@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Testing

/// Only the objects a test loaded itself, out of everything the test process has loaded: tests run in
/// parallel and load plugins of their own.
final class OwnObjectsSource: AnnotationSource {
    private let inner = LoadedObjectsSource()
    private let names: Set<String>

    convenience init(_ libraries: URL...) {
        self.init(libraries)
    }

    init(_ libraries: [URL]) {
        names = Set(libraries.map(\.lastPathComponent))
    }

    func poll() -> [ObjectEvent] {
        inner.poll().filter { event in
            switch event {
            case .loaded(let annotations): names.contains(URL(filePath: annotations.object.path).lastPathComponent)
            case .unloaded(let object): names.contains(URL(filePath: object.path).lastPathComponent)
            }
        }
    }
}

/// Where the loader module finds the second plugin.
let hubSecondPlugin = Locked<String?>(nil)

/// In a C plugin: its setUp loads a second plugin through the hive, its tearDown unloads it.
final class HubLoaderModule: Module, @unchecked Sendable {
    init() {}
    func setUp(_ context: ModuleContext) throws {
        hiveEvents.add("hub-plugin.loader.setUp")
        guard let path = hubSecondPlugin.withLock({ $0 }) else { return }
        try hubHive("plugins")?.loadPlugin(atPath: path)
    }
    func tearDown(_ context: ModuleContext) throws {
        hiveEvents.add("hub-plugin.loader.tearDown")
        guard let path = hubSecondPlugin.withLock({ $0 }) else { return }
        try hubHive("plugins")?.unloadPlugin(atPath: path)
    }
}

final class HubLoadedModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-plugin.loaded" } }
final class HubCountedModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-count" } }
final class HubStayingModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-staying" } }
final class HubRewrittenModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-rewritten" } }

protocol HubPluginService: Sendable { func name() -> String }

final class HubPluginServiceImpl: HubPluginService, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
    func name() -> String { "plugin service" }
}

/// In a C plugin next to its service: tearDown uses it.
final class HubServiceUserModule: Module, @unchecked Sendable {
    init() {}
    func tearDown(_ context: ModuleContext) throws {
        let name = (try? hubHive("own-service")?.services.resolve((any HubPluginService).self).name()) ?? "missing"
        hiveEvents.add("hub-own.tearDown \(name)")
    }
}

@Suite(.timeLimit(.minutes(10))) struct HubPluginTests {
    static func plugin(module: String, service: (String, String)? = nil) throws -> URL {
        var defines = ["HUB_MODULE=BeeHiveIntegrationTests.\(module)"]
        if let (proto, type) = service {
            defines += ["HUB_SERVICE_PROTOCOL=BeeHiveIntegrationTests.\(proto)", "HUB_SERVICE_TYPE=BeeHiveIntegrationTests.\(type)"]
        }
        return try SystemTools.cPlugin("hub.c", defines: defines)
    }

    @Test func aPluginModuleLoadsAndUnloadsAnotherFromItsHooks() async throws {
        let loader = try Self.plugin(module: "HubLoaderModule")
        let loaded = try Self.plugin(module: "HubLoadedModule")
        hubSecondPlugin.withLock { $0 = loaded.path }
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(loader, loaded)))
        hubHives.withLock { $0["plugins"] = hive }
        try await HiveHost(hive: hive).start()

        #expect(try hive.loadPlugin(atPath: loader.path).isEmpty)
        try await hive.modules.waitForLaunch()
        #expect(Set(hive.modules.modules.map(\.name)) == ["BeeHiveIntegrationTests.HubLoaderModule", "BeeHiveIntegrationTests.HubLoadedModule"])
        #expect(Plugin.loadedIdentity(atPath: loaded.path) != nil)

        #expect(try hive.unloadPlugin(atPath: loader.path).isEmpty)
        #expect(hive.modules.modules.isEmpty)
        #expect(hiveEvents.entries(withPrefix: "hub-plugin.") == [
            "loader.setUp", "loaded.setUp", "loaded.init", "loaded.splash", "loader.tearDown", "loaded.tearDown", "loaded.unmount",
        ])
        // C plugins really go: both are unmapped.
        #expect(Plugin.loadedIdentity(atPath: loader.path) == nil)
        #expect(Plugin.loadedIdentity(atPath: loaded.path) == nil)
        #expect(hive.diagnostics.isEmpty)
    }

    /// The same plugin by its path, a symlink and a relative path is one plugin loaded three times.
    @Test func samePluginThroughSymlinkAndRelativePathIsCounted() async throws {
        let library = try Self.plugin(module: "HubCountedModule")
        let folder = try FixtureHost.temporaryDirectory("hub-symlink")
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appending(path: "libLinked.so")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: library)
        let cwd = FileManager.default.currentDirectoryPath
        let relative = library.path.hasPrefix(cwd + "/") ? "./" + library.path.dropFirst(cwd.count + 1) : library.path

        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(library)))
        try await HiveHost(hive: hive).start()
        try hive.loadPlugin(atPath: library.path)
        #expect(try hive.loadPlugin(atPath: link.path).isEmpty)
        #expect(try hive.loadPlugin(atPath: relative).isEmpty)
        #expect(hive.modules.modules.map(\.name) == ["BeeHiveIntegrationTests.HubCountedModule"])

        try hive.unloadPlugin(atPath: relative)
        try hive.unloadPlugin(atPath: link.path)
        #expect(hive.modules.modules.count == 1)
        #expect(Plugin.loadedIdentity(atPath: library.path) != nil)
        try hive.unloadPlugin(atPath: library.path)
        #expect(hive.modules.modules.isEmpty)
        #expect(Plugin.loadedIdentity(atPath: library.path) == nil)
        #expect(hiveEvents.entries(withPrefix: "hub-count.") == ["setUp", "init", "splash", "tearDown", "unmount"])
        #expect(throws: HiveError.self) { try hive.unloadPlugin(atPath: library.path) }
    }

    /// A plugin that stays mapped like a Swift plugin (a C plugin carrying the symbol by which `Plugin.load`
    /// tells one) comes back when loaded again unchanged; once its file changed, loading it is a typed error
    /// and its old module does not come back.
    @Test func aStayingPluginWhoseFileChangedIsNotBroughtBack() async throws {
        let built = try SystemTools.cPlugin(
            "hub.c", defines: ["HUB_MODULE=BeeHiveIntegrationTests.HubStayingModule", "HUB_SWIFT_LIKE"])
        let folder = try FixtureHost.temporaryDirectory("hub-changed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try SystemTools.copy(built, into: folder)
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(library)))
        try await HiveHost(hive: hive).start()
        for _ in 0..<2 {
            try hive.loadPlugin(atPath: library.path)
            #expect(hive.modules.modules.map(\.name) == ["BeeHiveIntegrationTests.HubStayingModule"])
            try hive.unloadPlugin(atPath: library.path)
            #expect(hive.modules.modules.isEmpty)
            #expect(Plugin.loadedIdentity(atPath: library.path) != nil, "the plugin should stay mapped")
        }

        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: library.path)
        for _ in 0..<2 {
            #expect {
                try hive.loadPlugin(atPath: library.path)
            } throws: { error in
                guard case HiveError.pluginChangedSinceUnloaded(let path) = error else { return false }
                return path.hasSuffix("/" + library.lastPathComponent)
            }
            #expect(hive.modules.modules.isEmpty)
        }
        #expect(hive.diagnostics.count == 2)
        #expect(hive.diagnostics.allSatisfy { if case .pluginChangedSinceUnloaded = $0 { true } else { false } })
        #expect(hiveEvents.entries(withPrefix: "hub-staying.").filter { $0 == "setUp" }.count == 2)
        #expect(throws: HiveError.self) { try hive.unloadPlugin(atPath: library.path) }
    }

    /// A staying plugin whose file is rewritten and given its old modification time is not brought back, both
    /// ways a deployment does it: written in place (`rsync --inplace --times`: same device, inode, size and
    /// modification time, so only the change time tells), and `cp -p` of a new build renamed over it (same
    /// modification time, new inode and change time). `cp -p` straight onto the file is not tried: it truncates
    /// the mapped library, which discards its relocated pages, and the process crashes at exit.
    @Test func aStayingPluginRewrittenWithItsOldModificationTimeIsNotBroughtBack() async throws {
        let built = try SystemTools.cPlugin(
            "hub.c", defines: ["HUB_MODULE=BeeHiveIntegrationTests.HubRewrittenModule", "HUB_SWIFT_LIKE"])
        let folder = try FixtureHost.temporaryDirectory("hub-cp-p")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A name of its own: the hive sees objects by file name, and another test loads a copy of the same build.
        let library = try SystemTools.copy(built, into: folder, as: "libhub-rewritten.so")
        let kept = folder.appending(path: "kept.so")
        try SystemTools.run("cp", ["-p", library.path, kept.path])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(library)))
        try await HiveHost(hive: hive).start()
        try hive.loadPlugin(atPath: library.path)
        #expect(hive.modules.modules.map(\.name) == ["BeeHiveIntegrationTests.HubRewrittenModule"])
        try hive.unloadPlugin(atPath: library.path)
        #expect(Plugin.loadedIdentity(atPath: library.path) != nil, "the plugin should stay mapped")
        func expectRefused() {
            #expect {
                try hive.loadPlugin(atPath: library.path)
            } throws: { error in
                guard case HiveError.pluginChangedSinceUnloaded(let path) = error else { return false }
                return path.hasSuffix("/" + library.lastPathComponent)
            }
            #expect(hive.modules.modules.isEmpty)
        }

        var before = stat()
        #expect(stat(library.path, &before) == 0)
        var after = stat()
        // The same bytes into the same inode, without truncating it, then its old times back; again until the
        // change time, kept at the kernel's clock tick, moved.
        for _ in 0..<100 {
            try SystemTools.run("dd", ["if=\(kept.path)", "of=\(library.path)", "conv=notrunc", "status=none"])
            try SystemTools.run("touch", ["-r", kept.path, library.path])
            #expect(stat(library.path, &after) == 0)
            if (after.st_ctim.tv_sec, after.st_ctim.tv_nsec) != (before.st_ctim.tv_sec, before.st_ctim.tv_nsec) { break }
        }
        #expect((after.st_dev, after.st_ino, after.st_size) == (before.st_dev, before.st_ino, before.st_size))
        #expect((after.st_mtim.tv_sec, after.st_mtim.tv_nsec) == (before.st_mtim.tv_sec, before.st_mtim.tv_nsec))
        #expect((after.st_ctim.tv_sec, after.st_ctim.tv_nsec) != (before.st_ctim.tv_sec, before.st_ctim.tv_nsec))
        expectRefused()

        let staged = folder.appending(path: "staged.so")
        try SystemTools.run("cp", ["-p", kept.path, staged.path])
        #expect(rename(staged.path, library.path) == 0)
        #expect(stat(library.path, &after) == 0)
        #expect(after.st_ino != before.st_ino)
        #expect((after.st_mtim.tv_sec, after.st_mtim.tv_nsec) == (before.st_mtim.tv_sec, before.st_mtim.tv_nsec))
        expectRefused()
    }

    @Test func emptyPathDirectoryAndNonELFAreTypedErrors() throws {
        let folder = try FixtureHost.temporaryDirectory("hub-bad-plugins")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appending(path: "libText.so")
        try Data("not a library".utf8).write(to: text)
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        for (path, kind) in [("", PluginError.Kind.emptyPath), (folder.path, .notARegularFile), (text.path, .notELF),
                             (folder.appending(path: "libMissing.so").path, .notFound)] {
            #expect {
                try hive.loadPlugin(atPath: path)
            } throws: { error in
                guard case HiveError.plugin(let failure) = error else { return false }
                return failure.kind == kind && failure.path == path
            }
        }
        #expect(throws: HiveError.self) { try hive.unloadPlugin(atPath: "") }
    }

    /// Removal takes modules first: tearDown still finds the plugin's own service.
    @Test func tearDownResolvesAServiceOfItsOwnPlugin() async throws {
        let library = try Self.plugin(module: "HubServiceUserModule", service: ("HubPluginService", "HubPluginServiceImpl"))
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(library)))
        hubHives.withLock { $0["own-service"] = hive }
        try await HiveHost(hive: hive).start()
        try hive.loadPlugin(atPath: library.path)
        try hive.unloadPlugin(atPath: library.path)
        #expect(hiveEvents.entries(withPrefix: "hub-own.") == ["tearDown plugin service"])
        #expect(!hive.services.canCreateService((any HubPluginService).self))
    }

    /// A plugin with three malformed records and a module record naming no type, loaded and unloaded 10,000
    /// times: the registry's, the hive's and the module manager's histories keep their limits and count the
    /// rest, and memory stays bounded.
    @Test func tenThousandLoadsOfABadPluginStayBounded() async throws {
        let library = try SystemTools.cPlugin("hub.c", defines: ["HUB_MODULE=BeeHiveIntegrationTests.NoSuchHubModule", "HUB_MALFORMED"])
        let registry = AnnotationRegistry(source: OwnObjectsSource(library), diagnosticLimit: 50)
        let modules = ModuleManager(configuration: ModuleManager.Configuration(diagnosticLimit: 20))
        let hive = Hive(registry: registry, modules: modules, diagnosticLimit: 100)
        try await HiveHost(hive: hive).start()
        func cycle(_ count: Int) throws {
            for _ in 0..<count {
                let found = try hive.loadPlugin(atPath: library.path)
                #expect(found.count == 4, "\(found)")
                try hive.unloadPlugin(atPath: library.path)
            }
        }
        try cycle(1000)
        #expect(registry.diagnostics.count == 50)
        let before = try Self.residentBytes()
        try cycle(10_000)
        let growth = try Self.residentBytes() - before
        #expect(growth < 16 << 20, "resident memory grew by \(growth) bytes over 10,000 cycles")
        #expect(registry.diagnostics.count == 50)
        #expect(registry.droppedDiagnostics == 3 * 11_000 - 50)
        #expect(hive.diagnostics.count == 100)
        #expect(hive.droppedDiagnostics == 4 * 11_000 - 100)
        #expect(modules.diagnostics.count == 20)
        #expect(modules.droppedDiagnostics == 11_000 - 20)
    }

    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
