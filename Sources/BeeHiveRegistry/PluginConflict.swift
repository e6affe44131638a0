/// The same module, service, route or target declared by more than one plugin of an index (or by a plugin and
/// an object the host has linked), found before anything is loaded. Which one wins is the managers' policy;
/// the index only reports it.
public struct PluginConflict: Sendable, Hashable, CustomStringConvertible {
    public let identity: RecordIdentity
    /// Every file declaring it, plugins in index order, then linked objects.
    public let paths: [String]

    package init(identity: RecordIdentity, paths: [String]) {
        self.identity = identity
        self.paths = paths
    }

    public var description: String { "\(identity) is declared by \(paths.joined(separator: ", "))" }
}
