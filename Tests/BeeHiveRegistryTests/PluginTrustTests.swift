@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// Plugin folders, plugin files and caches that other users can write are refused unless the app says otherwise.
@Suite(.timeLimit(.minutes(10))) struct PluginTrustTests {
    @Test func worldWritablePluginFileIsRefused() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        let writable = try folder.add(bytes: TestLibrary.build(PluginFolder.source(1)), name: "libwritable.so", mode: 0o666)
        let (index, reads) = try folder.index()
        #expect(index.plugins.map(\.fileName) == ["libplugin0.so"])
        #expect(index.refused == [PluginAccessError(path: writable, role: .plugin, reason: .writableByOthers(mode: 0o666))])
        #expect(!reads.contains(writable))
        #expect(index.refused.first?.description.contains("chmod go-w \(writable)") == true)
        let (loosened, _) = try folder.index(trust: PluginTrustPolicy(allowsWritableByOthers: true))
        #expect(loosened.plugins.count == 2 && loosened.refused.isEmpty)
    }

    @Test func worldWritableFolderIsRefused() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        chmod(folder.path, 0o777)
        let resolved = try #require(realpathString(folder.path))
        #expect(throws: PluginAccessError(path: resolved, role: .folder, reason: .writableByOthers(mode: 0o777))) {
            try folder.index()
        }
        chmod(folder.path, 0o1777)
        #expect(throws: PluginAccessError(path: resolved, role: .folder, reason: .writableByOthers(mode: 0o1777))) {
            try folder.index()
        }
        #expect(try folder.index(trust: .trustEverything).0.plugins.count == 1)
    }

    @Test func groupWritableCacheIsNeitherReadNorTrusted() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        _ = try folder.index()
        let cacheFile = folder.cache.file(forFolder: try #require(realpathString(folder.path)))
        chmod(cacheFile, 0o620)
        let (index, reads) = try folder.index()
        #expect(reads.count == 1)
        #expect(index.cacheDiagnostics.map(\.kind) == [.refused(PluginAccessError(path: cacheFile, role: .cache, reason: .writableByOthers(mode: 0o620)))])
        // The fresh cache replaced it with one only this user can write.
        let (_, warmReads) = try folder.index()
        #expect(warmReads.isEmpty)
    }

    @Test func symbolicLinkAsCacheIsRefused() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        _ = try folder.index()
        let cacheFile = folder.cache.file(forFolder: try #require(realpathString(folder.path)))
        #expect(rename(cacheFile, cacheFile + ".real") == 0)
        #expect(symlink(cacheFile + ".real", cacheFile) == 0)
        let (index, reads) = try folder.index()
        #expect(reads.count == 1)
        #expect(index.cacheDiagnostics.count == 1)
    }
}
