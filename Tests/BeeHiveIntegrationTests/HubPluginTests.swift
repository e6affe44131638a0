import BeeHive
import BeeHiveLocks
import Foundation
import Testing

/// Only the objects a test loaded itself, out of everything the test process has loaded: tests run in
/// parallel and load plugins of their own.
final class OwnObjectsSource: AnnotationSource {
    private let inner = LoadedObjectsSource()
    private let names: Set<String>

    init(_ libraries: URL...) {
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

    /// A plugin whose record names no type, loaded and unloaded 10,000 times: the hive's memory stays bounded.
    @Test func tenThousandLoadsOfABadPluginStayBounded() async throws {
        let library = try Self.plugin(module: "NoSuchHubModule")
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(library)), diagnosticLimit: 100)
        try await HiveHost(hive: hive).start()
        func cycle(_ count: Int) throws {
            for _ in 0..<count {
                #expect(try hive.loadPlugin(atPath: library.path).count == 1)
                try hive.unloadPlugin(atPath: library.path)
            }
        }
        try cycle(1000)
        let before = try Self.residentBytes()
        try cycle(10_000)
        let growth = try Self.residentBytes() - before
        #expect(growth < 16 << 20, "resident memory grew by \(growth) bytes over 10,000 cycles")
        #expect(hive.diagnostics.count == 100)
        #expect(hive.droppedDiagnostics == 11_000 - 100)
    }

    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
