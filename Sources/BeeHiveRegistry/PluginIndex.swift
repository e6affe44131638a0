#if canImport(Glibc)
import Glibc
#endif

/// Every plugin of a folder and what each declares, known without loading any of them.
///
/// Each shared object of the folder (a name ending in `.so` or holding `.so.`) is read with the offline ELF
/// reader: no `dlopen`, none of its code runs. With a cache, a later index reads one small file and stats the
/// plugins instead of opening them. Files that are not ELF, are cut short or carry bad records are reported
/// in `problems` with their path and left out (or, for bad records, indexed without them).
public struct PluginIndex: Sendable {
    /// The folder, as an absolute path with symbolic links resolved.
    public let folder: String
    /// The plugins, ordered by the bytes of their file names.
    public let plugins: [IndexedPlugin]
    /// What was wrong with files of the folder: unreadable or damaged files (left out) and bad records.
    public let problems: [RegistryDiagnostic]
    /// Plugin files refused: by the trust policy, for not being ELF files, or for being built for another
    /// machine. They are left out.
    public let refused: [PluginAccessError]
    /// What was wrong with the cache (it was rebuilt, or not written).
    public let cacheDiagnostics: [PluginCacheDiagnostic]
    let declarations: PluginDeclarations

    /// Indexes `folder`, reading from and refreshing `cache` when there is one.
    ///
    /// - Throws: `PluginAccessError` when the folder is missing (reason `missing`), cannot be read, or the trust
    ///   policy refuses it.
    public static func build(
        folder: String, cache: PluginIndexCache? = .standard(), trust: PluginTrustPolicy = .strict
    ) throws(PluginAccessError) -> PluginIndex {
        try build(folder: folder, cache: cache, trust: trust, reading: { _ in })
    }

    /// `reading` is told the path of each file about to be read; tests count them.
    package static func build(
        folder given: String, cache: PluginIndexCache?, trust: PluginTrustPolicy, reading: @Sendable (String) -> Void
    ) throws(PluginAccessError) -> PluginIndex {
        guard let resolved = realpath(given, nil) else {
            let code = errno
            throw PluginAccessError(path: given, role: .folder, reason: code == ENOENT ? .missing : .unreadable(String(cString: strerror(code))))
        }
        let folder = String(cString: resolved)
        free(resolved)
        guard let directory = opendir(folder) else {
            let code = errno
            throw PluginAccessError(
                path: folder, role: .folder, reason: code == ENOTDIR ? .notAFolder : .unreadable(String(cString: strerror(code))))
        }
        defer { closedir(directory) }
        var status = stat()
        guard fstat(dirfd(directory), &status) == 0 else {
            throw PluginAccessError(path: folder, role: .folder, reason: .unreadable(String(cString: strerror(errno))))
        }
        if let refusal = trust.refusal(of: folder, .folder, status: status) { throw refusal }

        let (cached, readDiagnostics) = cache?.read(folder: folder, trust: trust) ?? (nil, [])
        var cacheDiagnostics = readDiagnostics
        var cacheIsCurrent = cacheDiagnostics.isEmpty
        // Entries of the cache that a file of the folder has now; any other is of a file gone.
        var matchedEntries = 0
        let cachedEntries = cached?.entries ?? []
        // Bound once: binding `cached` in the loop copied it for every plugin.
        let cachedImage = cached?.image
        var nextEntry = 0
        let user = geteuid()
        // Without cache entries every file is opened, and its status is taken on the open file instead.
        let files = pluginFiles(in: directory, stat: !cachedEntries.isEmpty)
        let prefix = folder + "/"
        // The plugins the cache answers for, and the files it does not, which are read after; each with its
        // position in the folder's order, for putting them together again when some were read.
        var plugins: [IndexedPlugin] = []
        plugins.reserveCapacity(files.count)
        var pluginPositions: [Int] = []
        // Files the listing alone settles: those that could not be stat'ed and those the trust policy refuses.
        var settled: [(position: Int, outcome: FileOutcome)] = []
        var unread: [FileToRead] = []
        for (position, file) in files.enumerated() {
            let name = file.name.name
            let path = prefix + name
            let listed = file.status
            if let listed {
                guard file.statError == 0 else {
                    let reason = String(cString: strerror(file.statError))
                    settled.append((position, FileOutcome(problems: [RegistryDiagnostic(.unreadableObject(reason: reason), objectPath: path)])))
                    continue
                }
                // A file that is not a regular one, or that the trust policy refuses, is not in the cache and
                // does not make it stale; one that is not a regular file is opened below to say what it is.
                guard listed.st_mode & S_IFMT == S_IFREG else {
                    unread.append(FileToRead(position: position, name: name, path: path, listed: listed))
                    continue
                }
                if let refusal = trust.refusal(of: path, .plugin, status: listed, user: user) {
                    settled.append((position, FileOutcome(refusal: refusal)))
                    continue
                }
                // Both are ordered by name: entries passed over are of files gone.
                while nextEntry < cachedEntries.count, cachedEntries[nextEntry].name < file.name { nextEntry += 1 }
                if nextEntry < cachedEntries.count, cachedEntries[nextEntry].name == file.name, let cachedImage {
                    let entry = cachedEntries[nextEntry].entry
                    nextEntry += 1
                    matchedEntries += 1
                    let stamp = PluginFileStamp(listed)
                    if entry.stamp == stamp,
                        let records = PluginIndexCacheFormat.records(of: entry, in: cachedImage, path: path)
                    {
                        plugins.append(
                            IndexedPlugin(
                                path: path, fileName: name, stamp: stamp, buildID: entry.buildID, isAnnotated: entry.isAnnotated,
                                records: records, isFromCache: true))
                        pluginPositions.append(position)
                        continue
                    }
                }
            }
            cacheIsCurrent = false
            unread.append(FileToRead(position: position, name: name, path: path, listed: listed))
        }
        var problems = settled.flatMap(\.outcome.problems)
        var refused = settled.compactMap(\.outcome.refusal)
        if !unread.isEmpty {
            let folderDescriptor = dirfd(directory)
            let read = readFiles(unread) { file in
                readFile(file, in: folderDescriptor, trust: trust, user: user, reading: reading)
            }
            var outcomes = [FileOutcome?](repeating: nil, count: files.count)
            for (plugin, position) in zip(plugins, pluginPositions) { outcomes[position] = FileOutcome(plugin: plugin) }
            for (position, outcome) in settled { outcomes[position] = outcome }
            for (file, outcome) in zip(unread, read) { outcomes[file.position] = outcome }
            plugins.removeAll(keepingCapacity: true)
            problems.removeAll()
            refused.removeAll()
            for outcome in outcomes {
                guard let outcome else { continue }
                problems += outcome.problems
                if let refusal = outcome.refusal { refused.append(refusal) }
                if let plugin = outcome.plugin { plugins.append(plugin) }
            }
        }
        if matchedEntries != cached?.entries.count ?? 0 { cacheIsCurrent = false }
        if let cache, !cacheIsCurrent {
            let cacheable = plugins.filter { $0.stamp != PluginFileStamp.unsteady }
            if let problem = cache.write(cacheable, folder: folder, trust: trust) { cacheDiagnostics.append(problem) }
        }
        return PluginIndex(
            folder: folder, plugins: plugins, problems: problems, refused: refused, cacheDiagnostics: cacheDiagnostics,
            declarations: PluginDeclarations(plugins))
    }

    /// A file of the folder that the cache does not answer for.
    private struct FileToRead: Sendable {
        /// Its position in the folder's order.
        let position: Int
        let name: String
        let path: String
        /// Its status as the folder was listed; nil when listed without statuses.
        let listed: stat?
    }

    /// What one file of the folder gave: a plugin, what was wrong with it, or its refusal.
    private struct FileOutcome: Sendable {
        var plugin: IndexedPlugin?
        var problems: [RegistryDiagnostic] = []
        var refusal: PluginAccessError?
    }

    /// Reads `file` offline. The kind, the trust check and the stamp are of the file opened, which is the one read.
    private static func readFile(
        _ file: FileToRead, in folder: Int32, trust: PluginTrustPolicy, user: uid_t, reading: (String) -> Void
    ) -> FileOutcome {
        let reader = PluginFileReader(opening: file.name, in: folder, path: file.path)
        guard let opened = reader.status else { return FileOutcome(problems: reader.failure?.diagnostics ?? []) }
        if opened.st_mode & S_IFMT == S_IFREG, let refusal = trust.refusal(of: file.path, .plugin, status: opened, user: user) {
            return FileOutcome(refusal: refusal)
        }
        if opened.st_mode & S_IFMT == S_IFREG, let refusal = architectureRefusal(of: file.path, reader.machine) {
            return FileOutcome(refusal: refusal)
        }
        // What loading would refuse, refused here, where the host can report it at start. Only plugins that
        // pass are cached, under the host's interface (PluginIndexCacheFormat.host), so a warm start checks nothing.
        if opened.st_mode & S_IFMT == S_IFREG, let linkage = reader.linkage(), let incompatibility = PluginIncompatibility.of(linkage) {
            return FileOutcome(refusal: PluginAccessError(path: file.path, role: .plugin, reason: .incompatible(incompatibility)))
        }
        reading(file.path)
        let read = reader.read()
        if read.diagnostics.contains(where: { $0.kind == .notELF }) {
            return FileOutcome(refusal: PluginAccessError(path: file.path, role: .plugin, reason: .notELF))
        }
        if read.diagnostics.contains(where: \.isUnreadableFile) { return FileOutcome(problems: read.diagnostics) }
        // A file replaced since it was listed is indexed but not cached. One written to while it is read is cached
        // under the stamp taken before reading, which the next index finds changed.
        let stamp = PluginFileStamp(opened)
        let steady = file.listed.map { PluginFileStamp($0) == stamp } != false && read.diagnostics.isEmpty
        let plugin = IndexedPlugin(
            path: file.path, fileName: file.name, stamp: steady ? stamp : PluginFileStamp.unsteady,
            buildID: read.object.buildID, isAnnotated: read.isAnnotated, records: read.records, isFromCache: false)
        return FileOutcome(plugin: plugin, problems: read.diagnostics)
    }

    /// The refusal of an ELF file built for another machine than this process runs on; nil for this machine's,
    /// and for a file with no ELF header, which the reader reports.
    private static func architectureRefusal(of path: String, _ header: (machine: UInt32, elfClass: UInt8)?) -> PluginAccessError? {
        let own = ObjectLinkage.processMachine
        guard let header, header.machine != own.machine || header.elfClass != own.elfClass else { return nil }
        return PluginAccessError(
            path: path, role: .plugin,
            reason: .otherArchitecture(
                file: ObjectLinkage.architectureName(machine: header.machine, elfClass: header.elfClass),
                process: ObjectLinkage.architectureName(machine: own.machine, elfClass: own.elfClass)))
    }

    /// `read` applied to every file, in order. Many files are read on every core: each is a few system calls
    /// and a parse of its own, and the cold scan of a large folder is otherwise most of a start.
    private static func readFiles(_ files: [FileToRead], _ read: @Sendable (FileToRead) -> FileOutcome) -> [FileOutcome] {
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return files.concurrentMap(workers: min(cores, files.count / minimumFilesPerThread), read)
    }

    /// Below this many files per thread, another thread costs more than it saves.
    private static let minimumFilesPerThread = 8

    /// Records declared by more than one plugin, or by a plugin and one of `linked` (the host's own records).
    public func conflicts(with linked: [AnnotationRecord] = []) -> [PluginConflict] {
        var paths = declarations.repeated
        // Declarations that only linked objects make so far.
        var linkedFirst: [RecordIdentity: String] = [:]
        for record in linked {
            let identity = record.identity
            let path = record.origin.objectPath
            if paths[identity] != nil {
                if paths[identity]?.contains(path) != true { paths[identity]?.append(path) }
                continue
            }
            guard let earlier = declarations.firstPlugin(declaring: identity).map({ plugins[$0].path }) ?? linkedFirst[identity] else {
                linkedFirst[identity] = path
                continue
            }
            if earlier != path { paths[identity] = [earlier, path] }
        }
        return paths.map { PluginConflict(identity: $0.key, paths: $0.value) }.sorted { $0.identity < $1.identity }
    }

    /// The plugin declaring `identity`, if any.
    public func plugin(declaring identity: RecordIdentity) -> IndexedPlugin? {
        declarations.firstPlugin(declaring: identity).map { plugins[$0] }
    }

    /// Whether a plugin of the index declares `identity`.
    package func declares(_ identity: RecordIdentity) -> Bool { declarations.firstPlugin(declaring: identity) != nil }

    /// Every identity of `kind` the plugins declare, each once.
    package func declaredIdentities(of kind: AnnotationKind) -> [RecordIdentity] { declarations.identities(of: kind) }

    /// The plugins carrying module records, in index order.
    package var pluginsWithModules: [IndexedPlugin] { declarations.modulePlugins.map { plugins[$0] } }

    /// A shared object of the folder and its status, taken as the folder was listed.
    private struct ListedFile {
        let name: PluginFileName
        /// nil when the folder was listed without taking statuses.
        let status: stat?
        /// The `errno` of the `fstatat` that failed; 0 when `status` is the file's.
        let statError: Int32
    }

    /// The folder's shared objects (a name ending in `.so` or holding `.so.`), sorted by the bytes of their
    /// names, each stat'ed through the folder's descriptor (when `stat` is true) with the name as `readdir`
    /// gave it; names that are not valid UTF-8 are skipped.
    private static func pluginFiles(in directory: OpaquePointer, stat takesStatus: Bool) -> [ListedFile] {
        var files: [ListedFile] = []
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw -> ListedFile? in
                let cName = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                let bytes = UnsafeRawBufferPointer(start: raw.baseAddress, count: strlen(cName))
                guard isSharedObjectName(bytes), let name = String(validatingCString: cName) else { return nil }
                guard takesStatus else { return ListedFile(name: PluginFileName(name, bytes: bytes), status: nil, statError: 0) }
                var status = stat()
                let failed = fstatat(descriptor, cName, &status, 0) != 0
                return ListedFile(name: PluginFileName(name, bytes: bytes), status: status, statError: failed ? errno : 0)
            }
            if let file { files.append(file) }
        }
        // Sorted through their positions: a status is 144 bytes, too many to move around while sorting.
        return files.indices.sorted { files[$0].name < files[$1].name }.map { files[$0] }
    }

    /// Whether a file name (`.` and `..` are not) ends in `.so` or holds `.so.`, read as bytes.
    private static func isSharedObjectName(_ name: UnsafeRawBufferPointer) -> Bool {
        let marker: (UInt8, UInt8, UInt8) = (UInt8(ascii: "."), UInt8(ascii: "s"), UInt8(ascii: "o"))
        guard name.count >= 3 else { return false }
        for start in 0...(name.count - 3) where name[start] == marker.0 && name[start + 1] == marker.1 && name[start + 2] == marker.2 {
            if start + 3 == name.count || name[start + 3] == UInt8(ascii: ".") { return true }
        }
        return false
    }
}

extension RegistryDiagnostic {
    /// Whether the whole file could not be read (as opposed to a bad record in it).
    package var isUnreadableFile: Bool {
        switch kind {
        case .unreadableObject, .notELF, .notRegularFile, .malformedObject, .sectionHeadersMissing: true
        default: false
        }
    }
}
