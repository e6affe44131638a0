#if canImport(Glibc)
import Glibc
#endif

/// `$ORIGIN` in a plugin path: the folder of the running executable, as the dynamic loader reads it in a
/// RUNPATH. It is found through /proc/self/exe, so a program started through a symlink on `PATH`, or from a
/// bundle copied anywhere, finds the plugins shipped beside it.
package enum ExecutableOrigin {
    /// The running executable's path, symlinks resolved; nil when /proc is not mounted.
    package static let executable: String? = {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                readlink("/proc/self/exe", $0, buffer.count - 1)
            }
        }
        return length > 0 ? String(decoding: buffer[..<length], as: UTF8.self) : nil
    }()

    /// The executable's folder.
    package static let folder: String? = executable.flatMap { path in
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` with a leading `$ORIGIN` or `${ORIGIN}` replaced by the executable's folder; any other path as
    /// it is.
    package static func resolve(_ path: String) -> String {
        for token in ["$ORIGIN", "${ORIGIN}"] where path == token || path.hasPrefix(token + "/") {
            guard let folder else { return path }
            return folder + path.dropFirst(token.count)
        }
        return path
    }
}
