@_spi(BeeHiveInternals) @_spi(Fuzzing) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// The index cache: a warm start opens no plugin, changes are noticed, and a bad cache is never trusted.
@Suite(.timeLimit(.minutes(10))) struct PluginIndexCacheTests {
    @Test func warmCacheOpensNoPluginFile() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<4 { try folder.addPlugin(index) }
        let (cold, coldReads) = try folder.index()
        #expect(coldReads.count == 4 && cold.cacheDiagnostics.isEmpty)
        let (warm, warmReads) = try folder.index()
        #expect(warmReads.isEmpty)
        #expect(warm.plugins.allSatisfy(\.isFromCache) && warm.cacheDiagnostics.isEmpty)
        #expect(warm.plugins.map(\.records) == cold.plugins.map(\.records))
        #expect(warm.plugins.map(\.buildID) == cold.plugins.map(\.buildID))
        // A cached plugin's records share one buffer, and its service and route each open their section (offset
        // 0): still different records, each in its own section.
        let records = warm.plugins[0].records
        #expect(records.map(\.origin) == cold.plugins[0].records.map(\.origin))
        #expect(Set(records.map(\.origin.section)) == [SectionName.services, SectionName.routes])
        #expect(records.filter { $0.origin.offset == 0 }.count == 2)
        #expect(records[0] != records[1] && records[1] != records[2] && records[0] != records[2])
    }

    @Test func standardLocationFollowsXDG() {
        #expect(PluginIndexCache.standard(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])?.directory == "/x/cache/beehive")
        #expect(PluginIndexCache.standard(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"])?.directory == "/home/u/.cache/beehive")
        #expect(PluginIndexCache.standard(environment: [:]) == nil)
    }

    @Test func rebuiltPluginIsReadAgainAndVanishedOneDropped() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<3 { try folder.addPlugin(index) }
        _ = try folder.index()
        let rebuilt = try folder.addPlugin(7, name: "libplugin1.so")
        unlink(folder.path + "/libplugin2.so")
        let (index, reads) = try folder.index()
        #expect(reads == [rebuilt])
        #expect(index.plugins.map(\.fileName) == ["libplugin0.so", "libplugin1.so"])
        #expect(index.plugins[1].records.first?.identity == RecordIdentity(kind: .service, name: "Plugins.Service7"))
        let (again, readsAgain) = try folder.index()
        #expect(readsAgain.isEmpty && again.plugins.count == 2)
    }

    /// A cache in the format of another BeeHive build (what every upgrade leaves; the header's first word after
    /// the magic), or written by a host of another BeeHive interface or Swift runtime (the second word: a cache
    /// holds the plugins its writer could load), is rebuilt without a diagnostic, each file read and checked
    /// again, and the rebuilt one is read warm.
    @Test(arguments: [8, 12]) func cacheOfAnotherFormatOrHostIsRebuiltSilently(word: Int) throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<2 { try folder.addPlugin(index) }
        _ = try folder.index()
        let cacheFile = folder.cache.file(forFolder: try #require(realpathString(folder.path)))
        var other = [UInt8](try Data(contentsOf: URL(filePath: cacheFile)))
        #expect(other[8..<12].elementsEqual([5, 0, 0, 0]))
        let written = Array(other[word..<word + 4])
        other[word] ^= 0x01
        try Data(other).write(to: URL(filePath: cacheFile))
        let (index, reads) = try folder.index()
        #expect(reads.count == 2 && index.plugins.count == 2)
        #expect(index.cacheDiagnostics.isEmpty)
        let rewritten = [UInt8](try Data(contentsOf: URL(filePath: cacheFile)))
        #expect(Array(rewritten[word..<word + 4]) == written)
        let (_, warmReads) = try folder.index()
        #expect(warmReads.isEmpty)
    }

    @Test func corruptCacheIsRebuiltWithADiagnostic() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<2 { try folder.addPlugin(index) }
        _ = try folder.index()
        let cacheFile = folder.cache.file(forFolder: try #require(realpathString(folder.path)))
        let valid = try Data(contentsOf: URL(filePath: cacheFile))
        for damaged in [Data("garbage".utf8), valid.prefix(valid.count / 2), valid + Data("plugin x\n".utf8), Data()] {
            try damaged.write(to: URL(filePath: cacheFile))
            let (index, reads) = try folder.index()
            #expect(reads.count == 2)
            #expect(index.cacheDiagnostics.map(\.kind.isCorrupt) == [true])
            #expect(index.plugins.count == 2)
            let (_, warmReads) = try folder.index()
            #expect(warmReads.isEmpty)
        }
        // One changed byte fails the checksum: every plugin is read again.
        var flipped = [UInt8](valid)
        flipped[flipped.count - 3] ^= 0x20
        try Data(flipped).write(to: URL(filePath: cacheFile))
        let (flippedIndex, flippedReads) = try folder.index()
        #expect(flippedReads.count == 2 && flippedIndex.cacheDiagnostics.map(\.kind.isCorrupt) == [true])
        // A record the parser refuses is cached with a layout that decoding refuses: the plugin is read from its
        // file.
        let (current, _) = try folder.index()
        let altered = current.plugins.map { plugin in
            plugin.fileName != "libplugin0.so" ? plugin : IndexedPlugin(
                path: plugin.path, fileName: plugin.fileName, stamp: plugin.stamp, buildID: plugin.buildID,
                isAnnotated: plugin.isAnnotated,
                records: plugin.records.map { record in
                    AnnotationRecord(
                        payload: record.payload,
                        text: record.text.replacingOccurrences(of: "|Plugins.Service0Impl", with: "|Plugins.Service0 Impl"),
                        origin: record.origin)
                },
                isFromCache: false)
        }
        try Data(PluginIndexCacheFormat.encode(altered, folder: current.folder)).write(to: URL(filePath: cacheFile))
        let (_, reads) = try folder.index()
        #expect(reads.count == 1 && reads.first?.hasSuffix("/libplugin0.so") == true)
    }

    /// Each byte of a cache changed in turn, its checksum set right again: whatever a changed layout says, the
    /// records made from it stay inside their bytes, and a layout outside its record or of a kind its section
    /// does not hold has the plugin read from its file.
    @Test func damagedLayoutsAreRefusedOrStayInsideTheirRecords() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        let (cold, _) = try folder.index()
        let cacheFile = folder.cache.file(forFolder: cold.folder)
        let valid = [UInt8](try Data(contentsOf: URL(filePath: cacheFile)))
        func index(_ bytes: [UInt8]) throws -> (PluginIndex, reads: [String]) {
            try Data(PluginIndexCache.sealed(bytes)).write(to: URL(filePath: cacheFile))
            return try folder.index()
        }
        // The last 30 bytes are the layout of the plugin's last record: its kind is 4 bytes from the end, its
        // length 26.
        var foreignKind = valid
        foreignKind[valid.count - 4] = 9
        var tooLong = valid
        tooLong[valid.count - 26] = 0xFF
        tooLong[valid.count - 25] = 0x0F
        for refused in [foreignKind, tooLong] {
            let (index, reads) = try index(refused)
            #expect(reads.count == 1 && index.plugins.count == 1)
            #expect(index.plugins.first?.records == cold.plugins.first?.records)
        }
        // After the 24-byte header (magic, version, host, checksum).
        for position in 24..<valid.count {
            var damaged = valid
            damaged[position] ^= 0xA5
            let (index, _) = try index(damaged)
            #expect(index.plugins.count == 1)
            for record in index.plugins.flatMap(\.records) {
                #expect(!record.text.isEmpty && !record.identity.name.isEmpty)
                _ = record.payload
            }
        }
    }

    /// Names are ordered and matched by their bytes: two Unicode spellings of one name are two plugins, each met
    /// by its own cache entry, and names sharing their first 16 bytes are told apart by the rest.
    /// What the `plugin-index-cache` fuzzer checks reaches the stored layouts: a real cache's entries decode to
    /// the records indexed, and written again they read back the same.
    @Test func fuzzingEntryPointDecodesEveryEntrysRecords() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<3 { try folder.addPlugin(index) }
        let (index, _) = try folder.index()
        let folderPath = index.folder
        let bytes = try [UInt8](Data(contentsOf: URL(filePath: folder.cache.file(forFolder: folderPath))))
        let entries = try #require(PluginIndexCache.decodedEntries(bytes, folder: folderPath))
        #expect(entries.map(\.fileName) == index.plugins.map(\.fileName))
        #expect(entries.map { $0.records?.map(\.text) } == index.plugins.map { $0.records.map(\.text) })
        #expect(entries.map { $0.records?.map(\.payload) } == index.plugins.map { $0.records.map(\.payload) })
        let again = PluginIndexCache.decodedEntries(PluginIndexCache.encoded(index.plugins, folder: folderPath), folder: folderPath)
        #expect(again?.map { $0.records?.map(\.text) } == entries.map { $0.records?.map(\.text) })
        // A damaged layout: that entry decodes to nothing, the others as before.
        var damaged = bytes
        let layoutKind = try #require(lastLayoutKindOffset(in: bytes))
        damaged[layoutKind] = 0xff
        let decoded = try #require(PluginIndexCache.decodedEntries(PluginIndexCache.sealed(damaged), folder: folderPath))
        #expect(decoded.map { $0.records == nil } == [false, false, true])
    }

    @Test func namesAreOrderedAndMatchedByTheirBytes() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        let names = ["libcaf\u{E9}.so", "libcafe\u{301}.so", "libplugin-long-name-b.so", "libplugin-long-name-a.so", "libplugin-long-name.so"]
        for (number, name) in names.enumerated() { try folder.addPlugin(number, name: name) }
        let expected = names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let (cold, coldReads) = try folder.index()
        #expect(coldReads.count == 5 && cold.plugins.map { Array($0.fileName.utf8) } == expected)
        let (warm, warmReads) = try folder.index()
        #expect(warmReads.isEmpty && warm.cacheDiagnostics.isEmpty)
        #expect(warm.plugins.map { Array($0.fileName.utf8) } == expected)
        #expect(warm.plugins.map(\.records) == cold.plugins.map(\.records))
    }

    @Test func foreignCacheIsRebuilt() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        let other = try PluginFolder()
        defer { other.remove() }
        try other.addPlugin(1)
        _ = try other.index(cache: folder.cache)
        let otherPath = try #require(realpathString(other.path))
        let mine = folder.cache.file(forFolder: try #require(realpathString(folder.path)))
        #expect(rename(folder.cache.file(forFolder: otherPath), mine) == 0)
        let (index, reads) = try folder.index()
        #expect(reads.count == 1)
        #expect(index.cacheDiagnostics.map(\.kind) == [.foreign(folder: otherPath)])
    }

    @Test func cacheEntryNamingAFileOutsideTheFolderIsIgnored() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        _ = try folder.index()
        // The same plugin, also outside the folder, and a cache entry pointing there.
        let outside = folder.root.appending(path: "libplugin0.so").path
        #expect(link(folder.path + "/libplugin0.so", outside) == 0)
        let resolved = try #require(realpathString(folder.path))
        let cacheFile = folder.cache.file(forFolder: resolved)
        let (indexed, _) = try folder.index()
        let plugin = try #require(indexed.plugins.first)
        let escaping = IndexedPlugin(
            path: plugin.path, fileName: "../libplugin0.so", stamp: plugin.stamp, buildID: plugin.buildID,
            isAnnotated: plugin.isAnnotated, records: plugin.records, isFromCache: false)
        try Data(PluginIndexCacheFormat.encode([escaping], folder: resolved)).write(to: URL(filePath: cacheFile))
        unlink(folder.path + "/libplugin0.so")
        let (index, reads) = try folder.index()
        #expect(reads.isEmpty && index.plugins.isEmpty)
        #expect(index.cacheDiagnostics.map(\.kind) == [.entryOutsideFolder(name: "../libplugin0.so")])
    }

    @Test func concurrentWritersLeaveAValidCache() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<6 { try folder.addPlugin(index) }
        let failures = ReadLog()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let (index, _) = try folder.index()
                if index.plugins.count != 6 || !index.cacheDiagnostics.isEmpty { failures.append("\(index.cacheDiagnostics)") }
            } catch { failures.append("\(error)") }
        }
        #expect(failures.paths.isEmpty)
        let (index, reads) = try folder.index()
        #expect(reads.isEmpty && index.plugins.count == 6)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.cache.directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}

func realpathString(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

extension PluginCacheDiagnostic.Kind {
    var isCorrupt: Bool {
        if case .corrupt = self { return true }
        return false
    }
}

/// The offset of the kind byte of the last record layout of a cache (layouts are 30 bytes, the kind at 26, and
/// the last plugin's last section ends the file).
private func lastLayoutKindOffset(in bytes: [UInt8]) -> Int? {
    bytes.count > 30 ? bytes.count - 30 + 26 : nil
}
