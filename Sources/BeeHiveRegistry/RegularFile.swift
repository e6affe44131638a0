#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Reads a whole configuration file without blocking: a FIFO without a writer would hang `Data(contentsOf:)`,
/// and a device could stream forever. The path is opened non-blocking and must be a regular file of at most
/// `limit` bytes.
package enum RegularFile {
    package struct Failure: Error, Sendable {
        /// What is wrong, in words: "it is a directory", "No such file or directory".
        package let reason: String
    }

    package static func contents(atPath path: String, limit: Int = 256 << 20) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(reason: "it is a directory, not a file")
        case S_IFIFO: throw Failure(reason: "it is a FIFO (named pipe), not a file")
        case S_IFSOCK: throw Failure(reason: "it is a socket, not a file")
        case S_IFCHR, S_IFBLK: throw Failure(reason: "it is a device, not a file")
        default: throw Failure(reason: "it is not a regular file")
        }
        guard info.st_size <= limit else {
            throw Failure(reason: "it is \(info.st_size) bytes, more than the \(limit)-byte limit for a configuration file")
        }
        var data = Data(count: Int(info.st_size))
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        // A file that shrank while being read is read as it now is.
        data.count = filled
        return data
    }
}
