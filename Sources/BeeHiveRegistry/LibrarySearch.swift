#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Whether the dynamic loader can find each library a plugin needs, asked before `dlopen`: a plugin whose
/// library is missing is refused with the library's name instead of the loader's message.
///
/// The search covers more than the loader's (every RPATH and RUNPATH of the plugin and of the executable,
/// `LD_LIBRARY_PATH`, the loader's cache, the system folders, the libraries already loaded), so that a
/// library it calls missing is one the loader could not find either; the loader still has the last word on
/// the libraries this search finds. A search path with a token other than `$ORIGIN` (`$LIB`, `$PLATFORM`)
/// makes the search give up rather than guess.
package enum LibrarySearch {
    /// The first library that `linkage`, read from the file at `path`, needs and nothing holds, with the
    /// folders searched; nil when every library is found or the search cannot tell.
    package static func missingLibrary(of linkage: ObjectLinkage, atPath path: String) -> (name: String, searched: [String])? {
        // Most needed libraries are in the loader's cache: the folders are listed only for the others.
        guard let cached = cachedNames() else { return nil }
        let uncached = linkage.needed.filter { name in name.contains("/") ? access(name, F_OK) != 0 : !cached.contains(name) }
        guard !uncached.isEmpty else { return nil }
        let origins = Set([ExecutableOrigin.folder(of: path), realDirectory(of: path)].compactMap { $0 })
        var folders: [String] = []
        for list in [linkage.rpath, linkage.runpath] {
            guard let expanded = expand(list, origins: origins) else { return nil }
            folders += expanded
        }
        guard let executable = executableFolders else { return nil }
        folders += executable
        // The loader reads LD_LIBRARY_PATH once, at start; the value now is searched too.
        for value in [initialLibraryPath, getenv("LD_LIBRARY_PATH").map { String(cString: $0) }] {
            guard let value, !value.isEmpty else { continue }
            // An empty entry is the working folder, as the loader reads it.
            folders += value.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        }
        folders += systemFolders
        var unique: [String] = []
        for folder in folders where !unique.contains(folder) { unique.append(folder) }
        for name in uncached where !isFound(name, in: unique) {
            return (name, unique)
        }
        return nil
    }

    /// Reads now what every search reads once and keeps (the loader's cache, the executable's search folders,
    /// `LD_LIBRARY_PATH` as the process started with it), so that the first plugin load, often a server's
    /// first request to it, does not wait for it. A hive calls it when it adds a plugin folder.
    package static func prepare() {
        _ = cachedNames()
        _ = executableFolders
        _ = initialLibraryPath
        _ = systemFolders
    }

    private static func isFound(_ name: String, in folders: [String]) -> Bool {
        if name.contains("/") { return false }
        // Already loaded, as most libraries a plugin needs are (the loader matches a needed name against
        // loaded libraries' names and sonames): asked first, as it costs no system call. RTLD_NOLOAD maps nothing.
        if let handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD) {
            dlclose(handle)
            return true
        }
        return folders.contains { access($0 + "/" + name, F_OK) == 0 }
    }

    /// A colon-separated search path with `$ORIGIN` replaced by each of `origins`; nil when it holds another
    /// token.
    private static func expand(_ list: String?, origins: Set<String>) -> [String]? {
        guard let list, !list.isEmpty else { return [] }
        var folders: [String] = []
        for entry in list.split(separator: ":") {
            guard entry.contains("$") else {
                folders.append(String(entry))
                continue
            }
            for origin in origins.sorted() {
                guard let folder = substitute(entry, origin: origin) else { return nil }
                folders.append(folder)
            }
        }
        return folders
    }

    /// `entry` with each `$ORIGIN` and `${ORIGIN}` replaced by `origin`; nil when it holds another `$` token.
    /// Plain string work: Foundation's replacing would cost a plugin's first load its first use of ICU.
    private static func substitute(_ entry: Substring, origin: String) -> String? {
        var result = ""
        var rest = entry
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let token = rest[rest.index(after: dollar)...]
            if token.hasPrefix("ORIGIN") {
                rest = token.dropFirst("ORIGIN".count)
            } else if token.hasPrefix("{ORIGIN}") {
                rest = token.dropFirst("{ORIGIN}".count)
            } else {
                return nil
            }
            result += origin
        }
        return result + rest
    }

    private static func realDirectory(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return ExecutableOrigin.folder(of: String(cString: resolved))
    }

    /// The executable's RPATH and RUNPATH folders: the loader searches the executable's RPATH for every
    /// library; its RUNPATH is included too, to search more rather than less.
    private static let executableFolders: [String]? = {
        guard case .success(let linkage) = ObjectLinkage.read(atPath: "/proc/self/exe") else { return [] }
        let origins = Set([realDirectory(of: "/proc/self/exe")].compactMap { $0 })
        guard let rpath = expand(linkage.rpath, origins: origins), let runpath = expand(linkage.runpath, origins: origins)
        else { return nil }
        return rpath + runpath
    }()

    /// LD_LIBRARY_PATH as the process started with it, from /proc/self/environ.
    private static let initialLibraryPath: String? = {
        let descriptor = open("/proc/self/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // The kernel bounds it (ARG_MAX); the bound here keeps a read loop from running on.
        while bytes.count < 4 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        let prefix = Array("LD_LIBRARY_PATH=".utf8)
        return bytes.split(separator: 0).first { $0.starts(with: prefix) }
            .map { String(decoding: $0.dropFirst(prefix.count), as: UTF8.self) }
    }()

    /// The loader's default folders on the machines we build for, with their multiarch twins.
    private static let systemFolders: [String] = {
        #if arch(x86_64)
        let triple = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let triple = "aarch64-linux-gnu"
        #else
        let triple = ""
        #endif
        return ["/lib64", "/usr/lib64", "/lib", "/usr/lib"] + (triple.isEmpty ? [] : ["/lib/\(triple)", "/usr/lib/\(triple)"])
    }()

    package static let cachePath = "/etc/ld.so.cache"

    private struct CacheStamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
    }

    /// The cache's names, read again when the file changes (ldconfig writes a new one); an empty set
    /// without a cache; nil for a cache this reader does not understand, so that the search gives up.
    private static let cache = Mutex<(stamp: CacheStamp, names: Set<String>)?>(nil)

    private static func cachedNames() -> Set<String>? {
        var info = stat()
        guard stat(cachePath, &info) == 0 else { return [] }
        let stamp = CacheStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        if let held = cache.withLock({ $0 }), held.stamp == stamp { return held.names }
        guard let bytes = try? RegularFile.contents(atPath: cachePath, limit: 64 << 20),
            case .success(let names) = LoaderCache.libraryNames(in: Array(bytes))
        else { return nil }
        cache.withLock { $0 = (stamp, names) }
        return names
    }
}
