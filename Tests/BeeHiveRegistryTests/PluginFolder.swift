@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// A temporary folder of plugins generated with clang (C annotations only: the index never runs them), and a
/// cache folder next to it.
struct PluginFolder {
    let root: URL
    var path: String { root.appending(path: "plugins").path }
    var cache: PluginIndexCache { PluginIndexCache(directory: root.appending(path: "cache").path) }

    init() throws {
        root = try TestLibrary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.appending(path: "plugins").path, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        chmod(path, 0o755)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// The C source of plugin `index`: one service, one route and one target, all its own.
    static func source(_ index: Int, extra: String = "") -> String {
        """
        #include <beehive.h>
        BeeHiveService(Plugins.Service\(index), Plugins.Service\(index)Impl)
        BeeHiveRoute("/plugin\(index)/:id", Plugins.Handler\(index))
        BeeHiveTarget(target\(index), Plugins.Target\(index))
        \(extra)
        """
    }

    /// Builds plugin `index` as `lib<name>.so`, replacing any file of that name (a new inode, as a build does).
    @discardableResult
    func addPlugin(_ index: Int, name: String? = nil, extra: String = "") throws -> String {
        try add(bytes: TestLibrary.build(Self.source(index, extra: extra)), name: name ?? "libplugin\(index).so")
    }

    @discardableResult
    func add(bytes: [UInt8], name: String, mode: mode_t = 0o644) throws -> String {
        let temporary = root.appending(path: "new-\(UUID().uuidString)")
        try TestLibrary.write(bytes, to: temporary)
        chmod(temporary.path, mode)
        let file = root.appending(path: "plugins").appending(path: name).path
        guard rename(temporary.path, file) == 0 else { throw ELFImage.Failure(description: "cannot rename to \(file)") }
        return file
    }

    /// Indexes the folder, counting the files it reads.
    func index(trust: PluginTrustPolicy = .strict, cache: PluginIndexCache? = nil) throws -> (PluginIndex, reads: [String]) {
        let reads = ReadLog()
        let index = try PluginIndex.build(folder: path, cache: cache ?? self.cache, trust: trust, reading: reads.append)
        return (index, reads.paths)
    }
}

final class ReadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ path: String) { lock.withLock { storage.append(path) } }
    var paths: [String] { lock.withLock { storage } }
}

/// Paths of the files mapped into this process now that lie in `folder`. Read with read(2) until its end:
/// /proc files have a size of 0, so reading "the whole file" by its size gives nothing.
func mappedFiles(in folder: String) throws -> Set<String> {
    let handle = try FileHandle(forReadingFrom: URL(filePath: "/proc/self/maps"))
    defer { try? handle.close() }
    let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    #expect(maps.contains("/proc/self/exe") || maps.contains("["), "maps were read")
    return Set(maps.split(separator: "\n").compactMap { line in
        line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
    }.filter { $0.hasPrefix(folder + "/") })
}
