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
    package static let folder: String? = executable.flatMap(folder(of:))

    /// The folder of `path`, as `dirname` gives it and as the loader takes an object's `$ORIGIN`; nil for a
    /// bare file name.
    package static func folder(of path: String) -> String? {
        func trimmingSlashes(_ text: Substring) -> Substring {
            var end = text.endIndex
            while end > text.startIndex, text[text.index(before: end)] == "/" { end = text.index(before: end) }
            return text[..<end]
        }
        let file = trimmingSlashes(path[...])
        guard let slash = file.lastIndex(of: "/") else { return nil }
        let folder = trimmingSlashes(file[..<slash])
        return folder.isEmpty ? "/" : String(folder)
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
