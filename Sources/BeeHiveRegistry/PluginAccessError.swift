/// A plugin folder, plugin file or index cache that the host refuses to use, and why.
public struct PluginAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the path is to the host.
    public enum Role: String, Sendable, Hashable {
        case folder = "plugin folder"
        case plugin = "plugin file"
        case cache = "plugin index cache"
    }

    public enum Reason: Sendable, Hashable {
        /// The group or other users can write it (`mode` holds its permission bits).
        case writableByOthers(mode: UInt32)
        /// A user other than the process's user or root owns it.
        case ownedByOtherUser(uid: UInt32)
        /// It cannot be read (the system's message).
        case unreadable(String)
        /// A folder was expected and this is not one.
        case notAFolder
    }

    public let path: String
    public let role: Role
    public let reason: Reason

    package init(path: String, role: Role, reason: Reason) {
        self.path = path
        self.role = role
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .writableByOthers(let mode):
            "refusing \(role.rawValue) \(path): other users can write it (mode \(String(mode, radix: 8))); run "
                + "`chmod go-w \(path)`, or loosen PluginTrustPolicy if that is intended"
        case .ownedByOtherUser(let uid):
            "refusing \(role.rawValue) \(path): it belongs to user \(uid), not to this process's user or root; "
                + "change its owner, or loosen PluginTrustPolicy if that is intended"
        case .unreadable(let message): "cannot read \(role.rawValue) \(path): \(message)"
        case .notAFolder: "\(role.rawValue) \(path) is not a folder"
        }
    }
}
