/// Something wrong with a plugin index cache. The index never fails for it: it reads the plugins again and
/// writes a fresh cache.
public struct PluginCacheDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The file is not a cache this build wrote, or is damaged or cut short; the reason says where.
        case corrupt(reason: String)
        /// The cache is of another folder (two folder paths with the same hash, or a copied file).
        case foreign(folder: String)
        /// The cache or its folder is not trusted (see `PluginTrustPolicy`); it is neither read nor written.
        case refused(PluginAccessError)
        /// An entry names a file outside the plugin folder; it is ignored.
        case entryOutsideFolder(name: String)
        /// The cache could not be written; the next start reads every plugin again.
        case unwritable(reason: String)
    }

    public let kind: Kind
    /// The cache file.
    public let path: String

    package init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    public var description: String {
        switch kind {
        case .corrupt(let reason): "\(path): plugin index cache is damaged (\(reason)); rebuilt"
        case .foreign(let folder): "\(path): plugin index cache belongs to folder \(folder); rebuilt"
        case .refused(let error): "\(error); the plugins are read without it"
        case .entryOutsideFolder(let name): "\(path): ignoring cache entry '\(name)', which is not a file of the folder"
        case .unwritable(let reason): "\(path): cannot write the plugin index cache: \(reason)"
        }
    }
}
