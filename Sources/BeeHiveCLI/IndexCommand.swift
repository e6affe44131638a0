import ArgumentParser
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation

/// `beehive index DIR... [--json] [--cache-dir DIR] [--no-cache]`: what every plugin of a folder declares,
/// read offline (nothing is loaded), and the index cache refreshed on the way.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index plugin folders without loading any plugin, and refresh their index caches.",
        discussion: """
            Prints one line per record (plugin file, whether it came from the cache, when a host loads the \
            plugin: at launch for a plugin with a module that is not on-demand, else on first use, the record), \
            then the conflicts between plugins, the files skipped and the cache's problems. With --json, prints \
            one JSON document (described in docs/plugins.md). The exit status is non-zero when a folder is \
            refused or cannot be read, or when a file of it was skipped.
            """
    )

    @Argument(help: "Plugin folders.")
    var folders: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "The cache folder (default: $XDG_CACHE_HOME/beehive or ~/.cache/beehive).")
    var cacheDir: String?

    @Flag(help: "Read every plugin and write no cache.")
    var noCache = false

    @Flag(help: "Accept folders and files that other users can write or own.")
    var trustEverything = false

    @Flag(help: "Print how long indexing each folder took, on standard error.")
    var timing = false

    func run() throws {
        let cache = noCache ? nil : cacheDir.map(PluginIndexCache.init(directory:)) ?? .standard()
        let trust: PluginTrustPolicy = trustEverything ? .trustEverything : .strict
        var reports: [FolderReport] = []
        for folder in folders {
            do {
                let start = ContinuousClock.now
                let index = try PluginIndex.build(folder: folder, cache: cache, trust: trust)
                let elapsed = ContinuousClock.now - start
                if timing {
                    let fromCache = index.plugins.filter(\.isFromCache).count
                    FileHandle.standardError.write(
                        Data("\(folder): indexed \(index.plugins.count) plugins (\(fromCache) from the cache) in \(elapsed)\n".utf8))
                }
                reports.append(FolderReport(index))
            } catch {
                reports.append(FolderReport(folder: folder, error: error))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        } else {
            print(reports.map(\.table).joined(separator: "\n"), terminator: "")
        }
        if reports.contains(where: { $0.error != nil || !$0.skipped.isEmpty }) { throw ExitCode.failure }
    }
}

extension IndexCommand {
    /// What `--json` prints for each folder.
    struct FolderReport: Encodable {
        struct Plugin: Encodable {
            let file: String
            let buildID: String?
            let annotated: Bool
            let fromCache: Bool
            /// "launch" for a plugin carrying a module that is not on-demand, else "first-use".
            let loads: String
            let records: [String]
        }

        struct Conflict: Encodable {
            let declaration: String
            let files: [String]
        }

        let folder: String
        /// Set when the whole folder was refused or unreadable.
        let error: String?
        let plugins: [Plugin]
        let conflicts: [Conflict]
        /// Files left out or records dropped, one message each.
        let skipped: [String]
        let cache: [String]

        init(_ index: PluginIndex) {
            folder = index.folder
            error = nil
            plugins = index.plugins.map { plugin in
                Plugin(
                    file: plugin.path, buildID: plugin.buildID, annotated: plugin.isAnnotated, fromCache: plugin.isFromCache,
                    loads: plugin.loadsAtLaunch ? "launch" : "first-use", records: plugin.records.map(\.text))
            }
            conflicts = index.conflicts().map { Conflict(declaration: $0.identity.description, files: $0.paths) }
            skipped = index.refused.map(\.description) + index.problems.map(\.description)
            cache = index.cacheDiagnostics.map(\.description)
        }

        init(folder: String, error: any Error) {
            self.folder = folder
            self.error = "\(error)"
            plugins = []
            conflicts = []
            skipped = []
            cache = []
        }

        var table: String {
            if let error { return "\(folder): error: \(error)\n" }
            var output = "\(folder): \(plugins.count) plugin\(plugins.count == 1 ? "" : "s")\n"
            let rows = plugins.flatMap { plugin in
                plugin.records.map { record in
                    [(plugin.file as NSString).lastPathComponent, plugin.fromCache ? "cache" : "read", plugin.loads, record]
                }
            }
            let header = ["PLUGIN", "SOURCE", "LOADS", "RECORD"]
            if !rows.isEmpty {
                let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
                for row in [header] + rows {
                    let padded = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count) }
                    output += (padded + [row[3]]).joined(separator: "  ") + "\n"
                }
            }
            for plugin in plugins where plugin.records.isEmpty {
                output += "\(plugin.file): no BeeHive annotations\n"
            }
            for conflict in conflicts {
                output += "conflict: \(conflict.declaration) is declared by \(conflict.files.joined(separator: ", "))\n"
            }
            for line in skipped { output += "skipped: \(line)\n" }
            for line in cache { output += "cache: \(line)\n" }
            return output
        }
    }
}

extension InspectCommand {
    /// A folder's shared objects (the files a plugin index reads), sorted; any other path as given.
    static func pluginFiles(in path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return [path] }
        return names.filter { $0.hasSuffix(".so") || $0.contains(".so.") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
