#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of a plugin file without opening it: the index and its cache keep a plugin's
/// records while its stamp is unchanged, and a plugin that stays mapped after it was unloaded is not brought
/// back once its file's stamp changed. The change time is part of it because no one can set it back: a file
/// rewritten and given its old modification time (`touch -r`, `cp -p`) still gets a new one.
public struct PluginFileStamp: Sendable, Hashable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modified: Timestamp
    public let changed: Timestamp

    public struct Timestamp: Sendable, Hashable {
        public let seconds: Int64
        public let nanoseconds: Int64

        public init(seconds: Int64, nanoseconds: Int64) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }
    }

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Timestamp, changed: Timestamp) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ status: stat) {
        self.init(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Timestamp(seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec)),
            changed: Timestamp(seconds: Int64(status.st_ctim.tv_sec), nanoseconds: Int64(status.st_ctim.tv_nsec)))
    }

    /// The stamp of a file the loader finds by searching its library path (a name without a slash): there is
    /// no file here to stamp.
    static let searched = PluginFileStamp(
        device: 0, inode: 0, size: 0, modified: .init(seconds: 0, nanoseconds: 0), changed: .init(seconds: 0, nanoseconds: 0))

    /// Marks a plugin whose file changed while it was read; it is never written to the cache.
    static let unsteady = PluginFileStamp(
        device: 0, inode: 0, size: -1, modified: .init(seconds: 0, nanoseconds: 0), changed: .init(seconds: 0, nanoseconds: 0))
}
