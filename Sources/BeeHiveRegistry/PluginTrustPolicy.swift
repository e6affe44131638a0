#if canImport(Glibc)
import Glibc
#endif

/// Which plugin folders, plugin files and index caches a host accepts.
///
/// Strict by default, the way ld.so's secure mode and sshd's `StrictModes` treat such paths: whoever can write
/// a plugin folder, a plugin or the cache decides what code the host runs, so each must belong to the
/// process's user (or root) and be writable by no one else. An app loosens this explicitly, for example for
/// a folder shared by a group of developers.
public struct PluginTrustPolicy: Sendable, Hashable {
    /// Accept paths that the group or other users can write.
    public var allowsWritableByOthers: Bool
    /// Accept paths owned by a user other than the process's effective user or root.
    public var allowsOtherOwners: Bool

    public init(allowsWritableByOthers: Bool = false, allowsOtherOwners: Bool = false) {
        self.allowsWritableByOthers = allowsWritableByOthers
        self.allowsOtherOwners = allowsOtherOwners
    }

    /// Only paths of this process's user or root, writable by no one else.
    public static let strict = PluginTrustPolicy()
    /// Any owner and any mode: for tests and trusted single-user machines only.
    public static let trustEverything = PluginTrustPolicy(allowsWritableByOthers: true, allowsOtherOwners: true)

    /// Why `status` (of `path`, a `role`) is not trusted, or nil when it is. `user` is the process's effective
    /// user, which a folder's index asks the system for once rather than once per plugin.
    func refusal(of path: String, _ role: PluginAccessError.Role, status: stat, user: uid_t = geteuid()) -> PluginAccessError? {
        let mode = UInt32(status.st_mode)
        if !allowsOtherOwners, status.st_uid != user, status.st_uid != 0 {
            return PluginAccessError(path: path, role: role, reason: .ownedByOtherUser(uid: status.st_uid))
        }
        if !allowsWritableByOthers, mode & UInt32(S_IWGRP | S_IWOTH) != 0 {
            return PluginAccessError(path: path, role: role, reason: .writableByOthers(mode: mode & 0o7777))
        }
        return nil
    }
}
