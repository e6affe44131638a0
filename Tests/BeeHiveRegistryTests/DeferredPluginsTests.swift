@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// Deferred plugins: known from the index without loading, each file checked against its entry before it is
/// opened. That a plugin loads once however many threads ask is the hive's plugin lifecycle's business
/// (BeeHiveIntegrationTests' PluginLifecycleTests).
@Suite(.timeLimit(.minutes(10))) struct DeferredPluginsTests {
    @Test func fiftyPluginsLoadNoneUntilFirstUseThenExactlyOne() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        let failures = ReadLog()
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            do { try folder.addPlugin(index) } catch { failures.append("\(error)") }
        }
        try #require(failures.paths.isEmpty, "\(failures.paths)")
        let (index, _) = try folder.index()
        #expect(index.plugins.count == 50)
        let deferred = DeferredPlugins([index])
        #expect(try mappedFiles(in: index.folder).isEmpty)
        let service = RecordIdentity(kind: .service, name: "Plugins.Service17")
        #expect(deferred.plugin(declaring: service)?.fileName == "libplugin17.so")
        #expect(deferred.plugin(declaring: RecordIdentity(kind: .service, name: "Plugins.Nobody")) == nil)
        #expect(try mappedFiles(in: index.folder).isEmpty, "answering who declares what loads nothing")
        let path = index.folder + "/libplugin17.so"
        let plugin = try #require(deferred.plugin(declaring: service))
        let loaded = try deferred.open(plugin, for: service, with: Plugin.load(atPath:))
        #expect(loaded.path == path)
        let mappedNow = try mappedFiles(in: index.folder)
        #expect(mappedNow == [path], "\(mappedNow)")
        #expect(deferred.plugin(declaring: RecordIdentity(kind: .target, name: "target17")) == plugin)
    }

    @Test func pluginDeletedOrReplacedAfterIndexingIsATypedError() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        try folder.addPlugin(1)
        let (index, _) = try folder.index()
        let deferred = DeferredPlugins([index])
        unlink(folder.path + "/libplugin0.so")
        try folder.addPlugin(9, name: "libplugin1.so")
        let gone = RecordIdentity(kind: .service, name: "Plugins.Service0")
        #expect(throws: DeferredPluginError(path: index.folder + "/libplugin0.so", requested: gone, reason: .vanished)) {
            try open(gone, in: deferred)
        }
        let changed = RecordIdentity(kind: .target, name: "target1")
        #expect(throws: DeferredPluginError(path: index.folder + "/libplugin1.so", requested: changed, reason: .changedSinceIndexed)) {
            try open(changed, in: deferred)
        }
        // The failure stays: a later ask gets the same error, and nothing was loaded.
        #expect(throws: DeferredPluginError.self) { try open(gone, in: deferred) }
        #expect(try mappedFiles(in: index.folder).isEmpty)
    }

    @Test func pluginThatCannotLoadNamesItsFileAndWhatWasAsked() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        // Readable offline, but it needs libdep.so, which the loader cannot find.
        try TestLibrary.write(TestLibrary.build("int dep(void) { return 1; }"), to: folder.root.appending(path: "libdep.so"))
        let bytes = try TestLibrary.build(PluginFolder.source(3), flags: ["-L", folder.root.path, "-ldep"])
        try folder.add(bytes: bytes, name: "libneedsdep.so")
        let (index, _) = try folder.index()
        let deferred = DeferredPlugins([index])
        let asked = RecordIdentity(kind: .service, name: "Plugins.Service3")
        #expect {
            try open(asked, in: deferred)
        } throws: { error in
            guard let error = error as? DeferredPluginError, case .loadFailed(let failure) = error.reason else { return false }
            return error.path == index.folder + "/libneedsdep.so" && error.requested == asked && failure.reason.contains("libdep.so")
                && error.description.contains("libneedsdep.so") && error.description.contains("Plugins.Service3")
        }
        #expect(try mappedFiles(in: index.folder).isEmpty)
    }

    /// Opens the plugin declaring `identity` as the hive does, after the checks.
    private func open(_ identity: RecordIdentity, in deferred: DeferredPlugins) throws(DeferredPluginError) {
        guard let plugin = deferred.plugin(declaring: identity) else { return }
        _ = try deferred.open(plugin, for: identity, with: Plugin.load(atPath:))
    }
}
