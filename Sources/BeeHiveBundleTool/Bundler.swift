import BeeHiveLint
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What goes into a bundle, as the `beehive-bundle` command plugin found it in the build folder.
struct BundleRequest {
    var output = ""
    var executable = ""
    /// Dynamic libraries the app loads by path next to itself (`--library`), such as the demo's libReviews.so.
    var libraries: [String] = []
    /// Plugins for the plugins folder; one the bundle's files need is bundled as a library instead.
    var plugins: [String] = []
    var pluginsFolder = "plugins"
    /// Names of SwiftPM resource bundles (`Package_Target.resources`), copied next to the executable when built.
    var resources: [String] = []
    var includesSwiftRuntime = false
}

/// Lays a bundle out: the executable, the libraries it needs from the build folder and, on request, the Swift
/// runtime, next to it or in `lib/`; the plugins in their folder; every RUNPATH rewritten in place to entries
/// relative to `$ORIGIN` (and, without the runtime, the toolchain's runtime folder), so that the folder runs
/// wherever it is put.
///
/// ```
/// OUT/APP  OUT/lib*.so  OUT/*.resources/  OUT/PLUGINS/lib*.so  OUT/lib/libswift*.so (with the runtime)
/// ```
///
/// In place because the new search path is never longer than the one SwiftPM wrote (the toolchain's absolute
/// path and `$ORIGIN`), so no tool such as patchelf is needed; the bytes left over become NULs.
struct Bundler {
    enum Place: Comparable {
        case root, runtime, plugins
    }

    struct File {
        let source: String
        let place: Place
        let dynamic: DynamicSection
        var name: String { (source as NSString).lastPathComponent }
    }

    /// What the bundle holds and what it leaves to the system, for the summary.
    struct Layout {
        let root: String
        var files: [(path: String, runpath: String?)] = []
        var resources: [String] = []
        var notes: [String] = []
        var systemLibraries: [String] = []
        /// Swift runtime libraries the bundle needs but does not hold (without `--swift-runtime`), and where.
        var unbundledRuntime: [String] = []
        var runtimeFolders: [String] = []
    }

    static let marker = ".beehive-bundle"

    let request: BundleRequest
    let buildFolder: String
    private var files: [String: File] = [:]
    private var order: [String] = []
    private var runtimeFolders: [String] = []
    private var systemLibraries: Set<String> = []
    private var unbundledRuntime: Set<String> = []
    private var notes: [String] = []
    private let systemCache: Set<String>

    init(request: BundleRequest) {
        self.request = request
        buildFolder = (request.executable as NSString).deletingLastPathComponent
        systemCache = Self.systemLibraryNames()
    }

    /// Finds every file, stages the bundle beside `output` and moves it there, replacing an earlier bundle.
    mutating func make() throws(BundleError) -> Layout {
        try add(request.executable, .root)
        for library in request.libraries { try add(library, .root) }
        try resolveNeeds()
        for plugin in request.plugins {
            let name = (plugin as NSString).lastPathComponent
            if files[key(name, .root)] != nil {
                notes.append("\(name) is needed by the bundle's files, so it is bundled next to the executable, not as a plugin")
                continue
            }
            try add(plugin, .plugins)
        }
        try resolveNeeds()
        // A plugin that another plugin needs was just bundled as a library too: it stays there only.
        for plugin in request.plugins.map({ ($0 as NSString).lastPathComponent })
        where files[key(plugin, .root)] != nil && files[key(plugin, .plugins)] != nil {
            let dropped = key(plugin, .plugins)
            files[dropped] = nil
            order.removeAll { $0 == dropped }
            notes.append("\(plugin) is needed by another plugin, so it is bundled next to the executable, not as a plugin")
        }

        let output = URL(fileURLWithPath: request.output).standardizedFileURL.path
        let staging = (output as NSString).deletingLastPathComponent + "/.\((output as NSString).lastPathComponent).staging-\(getpid())"
        try checkReplaceable(output)
        try? FileManager.default.removeItem(atPath: staging)
        do {
            let layout = try write(into: staging, reportedAs: output)
            try replace(output, with: staging)
            return layout
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    // MARK: Finding the files

    private func key(_ name: String, _ place: Place) -> String { place == .plugins ? "plugins/" + name : name }

    private mutating func add(_ path: String, _ place: Place) throws(BundleError) {
        let name = (path as NSString).lastPathComponent
        guard files[key(name, place)] == nil else { return }
        let dynamic: DynamicSection
        do {
            dynamic = try DynamicSection(path: path)
        } catch {
            throw .unreadable(error)
        }
        // SwiftPM writes the toolchain's runtime folder into the RUNPATH of what it builds: that is where the
        // runtime the files were built against is.
        if place != .runtime {
            for entry in (dynamic.runpath ?? dynamic.rpath)?.entries ?? []
            where entry.hasPrefix("/") && entry != buildFolder && !runtimeFolders.contains(entry) {
                runtimeFolders.append(entry)
            }
        }
        files[key(name, place)] = File(source: path, place: place, dynamic: dynamic)
        order.append(key(name, place))
    }

    /// Adds what every file found so far needs, until nothing new is needed.
    private mutating func resolveNeeds() throws(BundleError) {
        var next = 0
        while next < order.count {
            let file = files[order[next]]!
            next += 1
            for needed in file.dynamic.needed {
                if files[key(needed, .root)] != nil || files[key(needed, .runtime)] != nil { continue }
                let fromBuild = buildFolder + "/" + needed
                if file.place != .runtime, FileManager.default.fileExists(atPath: fromBuild) {
                    try add(fromBuild, .root)
                } else if let folder = runtimeFolders.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + needed) }) {
                    if request.includesSwiftRuntime {
                        try add(folder + "/" + needed, .runtime)
                    } else {
                        unbundledRuntime.insert(needed)
                    }
                } else if systemCache.contains(needed) {
                    systemLibraries.insert(needed)
                } else {
                    throw .missingLibrary(name: needed, neededBy: file.name, searched: [buildFolder] + runtimeFolders)
                }
            }
        }
    }

    /// The names of the libraries the system's loader finds by itself, from its cache.
    private static func systemLibraryNames() -> Set<String> {
        guard let ldconfig = ["/sbin/ldconfig", "/usr/sbin/ldconfig"].first(where: FileManager.default.isExecutableFile)
        else { return [] }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: ldconfig)
        process.arguments = ["-p"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "\tlibelf.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libelf.so.1"
        return Set(text.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        })
    }

    // MARK: Writing the bundle

    private func folder(of place: Place, in root: String) -> String {
        switch place {
        case .root: root
        case .runtime: root + "/lib"
        case .plugins: root + "/" + request.pluginsFolder
        }
    }

    /// The RUNPATH replacing `current` in `file`: the bundle's root and, with the runtime, `lib/`, relative to
    /// the file. Without the runtime, the executable and the libraries beside it keep the toolchain's runtime
    /// folder they named, where the Swift slim image has the runtime as well (/usr/lib/swift/linux, as in the
    /// full image). A plugin keeps it only where it fits, which SwiftPM's RUNPATH leaves no room for; it then
    /// uses the runtime libraries its host has loaded, which the loader matches by name.
    private func runpath(for file: File, replacing current: DynamicSection.SearchPath) -> String {
        guard file.place != .runtime else { return "$ORIGIN" }
        let depth = file.place == .root ? 0 : request.pluginsFolder.split(separator: "/").count
        let up = "$ORIGIN" + String(repeating: "/..", count: depth)
        if request.includesSwiftRuntime { return "\(up):\(up)/lib" }
        let withRuntime = ([up] + current.entries.filter(runtimeFolders.contains)).joined(separator: ":")
        return file.place == .root || withRuntime.utf8.count <= current.byteCount ? withRuntime : up
    }

    private func write(into staging: String, reportedAs output: String) throws(BundleError) -> Layout {
        var layout = Layout(root: output)
        layout.notes = notes
        try makeFolder(staging)
        for place in [Place.root, .runtime, .plugins] where files.values.contains(where: { $0.place == place }) {
            try makeFolder(folder(of: place, in: staging))
        }
        for key in order.sorted(by: { (files[$0]!.place, $0) < (files[$1]!.place, $1) }) {
            let file = files[key]!
            let destination = folder(of: file.place, in: staging) + "/" + file.name
            // Plugins are read, not run, by the hive: 0644 like scripts/demo's; writable by the owner only either
            // way, as the hive's trust policy requires.
            try copy(file.source, to: destination, mode: file.place == .plugins ? 0o644 : 0o755)
            let runpath = try rewriteSearchPaths(of: file, at: destination)
            layout.files.append((String(destination.dropFirst(staging.count + 1)), runpath))
        }
        for name in request.resources {
            let source = buildFolder + "/" + name
            guard FileManager.default.fileExists(atPath: source) else { continue }
            try copyTree(source, to: staging + "/" + name)
            layout.resources.append(name)
        }
        layout.systemLibraries = systemLibraries.sorted()
        layout.unbundledRuntime = unbundledRuntime.sorted()
        layout.runtimeFolders = runtimeFolders
        let manifest = layout.files.map(\.path).joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: staging + "/" + Self.marker, contents: Data(manifest.utf8)) else {
            throw .fileSystem(operation: "write", path: staging + "/" + Self.marker, reason: "cannot create the file")
        }
        return layout
    }

    /// Rewrites the copy's RUNPATH (and an old-style RPATH) to the bundle's relative one; returns what it is.
    private func rewriteSearchPaths(of file: File, at path: String) throws(BundleError) -> String? {
        let searchPaths = [file.dynamic.runpath, file.dynamic.rpath].compactMap { $0 }
        guard !searchPaths.isEmpty else {
            let bundled = file.dynamic.needed.filter { files[key($0, .root)] != nil || files[key($0, .runtime)] != nil }
            // Within lib/ or the root, a file without a search path still finds the libraries next to it
            // only through another file's RUNPATH, which the loader does not apply to it.
            guard bundled.isEmpty else { throw .noRunpath(file: file.name, needs: bundled) }
            return nil
        }
        for searchPath in searchPaths {
            let wanted = runpath(for: file, replacing: searchPath)
            guard searchPath.value != wanted else { continue }
            guard wanted.utf8.count <= searchPath.byteCount else {
                throw .runpathTooLong(file: file.name, current: searchPath.value, wanted: wanted)
            }
            guard !searchPath.sharesBytes else { throw .runpathShared(file: file.name, current: searchPath.value) }
            var bytes = Array(wanted.utf8)
            bytes += repeatElement(0, count: searchPath.byteCount - bytes.count)
            try overwrite(path, at: searchPath.fileOffset, with: bytes)
        }
        // Read back, so that a bundle whose files could still reach outside it (but for the runtime's folder,
        // when it is not bundled) is never handed over.
        let written: DynamicSection
        do {
            written = try DynamicSection(path: path)
        } catch {
            throw .unreadable(error)
        }
        for searchPath in [written.runpath, written.rpath].compactMap({ $0 })
        where searchPath.entries.contains(where: {
            !$0.hasPrefix("$ORIGIN") && (request.includesSwiftRuntime || !runtimeFolders.contains($0))
        }) {
            throw .runpathNotRelative(file: file.name, value: searchPath.value)
        }
        return written.runpath?.value ?? written.rpath?.value
    }

    private func overwrite(_ path: String, at offset: UInt64, with bytes: [UInt8]) throws(BundleError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileSystem(operation: "open", path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else {
            throw .fileSystem(operation: "rewrite the RUNPATH of", path: path, reason: String(cString: strerror(errno)))
        }
    }

    // MARK: Files and folders

    private func makeFolder(_ path: String) throws(BundleError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(operation: "create the folder", path: path, reason: "\(error)")
        }
        try setMode(path, 0o755)
    }

    private func copy(_ source: String, to destination: String, mode: mode_t) throws(BundleError) {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw .fileSystem(operation: "copy \(source) to", path: destination, reason: "\(error)")
        }
        try setMode(destination, mode)
    }

    /// Copies a resource bundle; its folders become 0755 and its files 0644, whatever the umask made them.
    /// Symbolic links are copied as links and left alone: chmod would change what they point at.
    private func copyTree(_ source: String, to destination: String) throws(BundleError) {
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw .fileSystem(operation: "copy \(source) to", path: destination, reason: "\(error)")
        }
        try setMode(destination, 0o755)
        let enumerator = FileManager.default.enumerator(atPath: destination)
        while let relative = enumerator?.nextObject() as? String {
            switch enumerator?.fileAttributes?[.type] as? FileAttributeType {
            case .typeDirectory?: try setMode(destination + "/" + relative, 0o755)
            case .typeRegular?: try setMode(destination + "/" + relative, 0o644)
            default: continue
            }
        }
    }

    private func setMode(_ path: String, _ mode: mode_t) throws(BundleError) {
        guard chmod(path, mode) == 0 else {
            throw .fileSystem(operation: "set the mode of", path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// An earlier bundle (it holds the marker) or an empty folder may be replaced; anything else is the user's.
    private func checkReplaceable(_ output: String) throws(BundleError) {
        guard let contents = try? FileManager.default.contentsOfDirectory(atPath: output) else {
            guard !FileManager.default.fileExists(atPath: output) else { throw .outputNotABundle(output) }
            return
        }
        guard contents.isEmpty || contents.contains(Self.marker) else { throw .outputNotABundle(output) }
    }

    private func replace(_ output: String, with staging: String) throws(BundleError) {
        if FileManager.default.fileExists(atPath: output) {
            do {
                try FileManager.default.removeItem(atPath: output)
            } catch {
                throw .fileSystem(operation: "remove the earlier bundle", path: output, reason: "\(error)")
            }
        }
        guard rename(staging, output) == 0 else {
            throw .fileSystem(operation: "move the bundle to", path: output, reason: String(cString: strerror(errno)))
        }
    }
}
