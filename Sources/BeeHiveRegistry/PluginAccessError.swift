/// A plugin folder, plugin file or index cache that the host refuses to use, and why; its description names the
/// path and what to do about it.
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
        /// Nothing is at the path.
        case missing
        /// A plugin file that is not an ELF file.
        case notELF
        /// A plugin file built for another machine (`file`) than this process runs on (`process`), named as
        /// the architectures are usually spelt.
        case otherArchitecture(file: String, process: String)
        /// A plugin file that loading would refuse: another Swift runtime or BeeHive interface than the host's.
        case incompatible(PluginIncompatibility)
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
        case .notAFolder: "\(role.rawValue) \(path) is not a folder; give the path of a folder of plugins"
        case .missing: "\(role.rawValue) \(path) does not exist; create it, or correct the path"
        case .notELF:
            "refusing \(role.rawValue) \(path): it is not an ELF shared library; remove it from the folder (every "
                + "file named *.so or *.so.* there is taken for a plugin)"
        case .otherArchitecture(let file, let process):
            "refusing \(role.rawValue) \(path): it is built for \(file) and this process runs on \(process); "
                + "rebuild it for this machine, or remove it from the folder"
        case .incompatible(let incompatibility):
            "refusing \(role.rawValue) \(path): \(incompatibility); or remove it from the folder"
        }
    }
}
