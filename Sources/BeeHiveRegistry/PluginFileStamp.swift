#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of a plugin file without opening it: the index cache keeps a plugin's records
/// while its stamp is unchanged. The change time is part of it because no one can set it back: a file
/// rewritten and given its old modification time (`touch -r`, `cp -p`) still gets a new one.
public struct PluginFileStamp: Sendable, Hashable {
    public let size: Int64
    public let modified: Timestamp
    public let changed: Timestamp
    public let inode: UInt64
    public let device: UInt64

    public struct Timestamp: Sendable, Hashable {
        public let seconds: Int64
        public let nanoseconds: Int64

        public init(seconds: Int64, nanoseconds: Int64) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }
    }

    public init(size: Int64, modified: Timestamp, changed: Timestamp, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    init(_ status: stat) {
        self.init(
            size: Int64(status.st_size),
            modified: Timestamp(seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec)),
            changed: Timestamp(seconds: Int64(status.st_ctim.tv_sec), nanoseconds: Int64(status.st_ctim.tv_nsec)),
            inode: UInt64(status.st_ino), device: UInt64(status.st_dev))
    }
}
