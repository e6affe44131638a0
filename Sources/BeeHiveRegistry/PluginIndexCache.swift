#if canImport(Glibc)
import Glibc
#endif

/// Where an index of a plugin folder is kept between starts: one small file per folder, so a start with a
/// warm cache reads it and stats the plugins instead of opening each of them.
///
/// The file is replaced whole (written to a temporary file, then renamed over), so any number of processes
/// starting at once each read an old or a new cache, never a mix, and the last writer's cache stays. It is
/// only a hint: an entry counts only for a file the folder holds now with the same stamp, and its records'
/// stored layouts are checked to lie inside them (`PluginIndexCacheFormat`).
public struct PluginIndexCache: Sendable, Hashable {
    /// The folder holding the cache files.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/beehive`, or `~/.cache/beehive`; nil when neither variable gives an absolute path.
    public static func standard(environment: [String: String]? = nil) -> PluginIndexCache? {
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let base = variable("XDG_CACHE_HOME"), base.hasPrefix("/") { return PluginIndexCache(directory: base + "/beehive") }
        if let home = variable("HOME"), home.hasPrefix("/") { return PluginIndexCache(directory: home + "/.cache/beehive") }
        return nil
    }

    /// The cache file of a plugin folder (an absolute, canonical path).
    public func file(forFolder folder: String) -> String {
        // FNV-1a: stable across runs and builds, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in folder.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return directory + "/plugins-" + String(repeating: "0", count: 16 - hex.count) + hex + ".index"
    }

    /// A cache file larger than this is not one this code wrote.
    static let maximumSize = 64 << 20

    /// The cache of `folder`, decoded; nil, with a diagnostic, when the cache is missing (no diagnostic),
    /// refused or damaged.
    func read(folder: String, trust: PluginTrustPolicy) -> (cache: PluginIndexCacheFormat.Decoded?, diagnostics: [PluginCacheDiagnostic]) {
        let path = file(forFolder: folder)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return (nil, []) }
            let reason = code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))
            return (nil, [PluginCacheDiagnostic(.refused(PluginAccessError(path: path, role: .cache, reason: .unreadable(reason))), path: path)])
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return (nil, [PluginCacheDiagnostic(.corrupt(reason: "not a regular file"), path: path)])
        }
        if let refusal = trust.refusal(of: path, .cache, status: status) ?? directoryRefusal(trust) {
            return (nil, [PluginCacheDiagnostic(.refused(refusal), path: path)])
        }
        guard status.st_size <= Self.maximumSize else {
            return (nil, [PluginCacheDiagnostic(.corrupt(reason: "\(status.st_size) bytes is too large"), path: path)])
        }
        let image = PluginIndexCacheImage(reading: descriptor, size: Int(status.st_size))
        do throws(PluginIndexCacheFormat.Failure) {
            let decoded = try PluginIndexCacheFormat.decode(image, folder: folder)
            return (decoded, decoded.outside.map { PluginCacheDiagnostic(.entryOutsideFolder(name: $0), path: path) })
        } catch {
            switch error {
            case .foreign(let other): return (nil, [PluginCacheDiagnostic(.foreign(folder: other), path: path)])
            case .corrupt(let reason): return (nil, [PluginCacheDiagnostic(.corrupt(reason: reason), path: path)])
            // Rebuilt without a word: a cache of another format is what every upgrade leaves behind.
            case .otherVersion: return (nil, [])
            }
        }
    }

    /// Replaces the cache of `folder` with `plugins`, atomically. Returns a diagnostic when it cannot.
    func write(_ plugins: [IndexedPlugin], folder: String, trust: PluginTrustPolicy) -> PluginCacheDiagnostic? {
        let path = file(forFolder: folder)
        if let problem = makeDirectory() { return PluginCacheDiagnostic(.unwritable(reason: problem), path: path) }
        if let refusal = directoryRefusal(trust) { return PluginCacheDiagnostic(.refused(refusal), path: path) }
        let bytes = PluginIndexCacheFormat.encode(plugins, folder: folder)
        let random = UInt64.random(in: 0...UInt64.max)
        let temporary = path + ".tmp-\(getpid())-\(String(random, radix: 36))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return PluginCacheDiagnostic(.unwritable(reason: String(cString: strerror(errno))), path: path)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let reason = written == bytes.count ? nil : String(cString: strerror(errno))
        close(descriptor)
        // No fsync: a cache lost or cut short by a crash is read as damaged and rebuilt, which costs one cold
        // scan, while a sync would cost every cold scan milliseconds.
        if let reason {
            unlink(temporary)
            return PluginCacheDiagnostic(.unwritable(reason: reason), path: path)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return PluginCacheDiagnostic(.unwritable(reason: reason), path: path)
        }
        return nil
    }

    /// Creates the cache folder (and missing parents) readable by this user only.
    private func makeDirectory() -> String? {
        // Usually there already: one call instead of one per component.
        if mkdir(directory, 0o700) == 0 || errno == EEXIST { return nil }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { return "cannot create \(prefix): \(String(cString: strerror(errno)))" }
        }
        return nil
    }

    private func directoryRefusal(_ trust: PluginTrustPolicy) -> PluginAccessError? {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            return PluginAccessError(path: directory, role: .cache, reason: .unreadable(String(cString: strerror(errno))))
        }
        return trust.refusal(of: directory, .cache, status: status)
    }
}
