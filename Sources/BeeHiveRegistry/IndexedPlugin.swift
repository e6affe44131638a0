/// One plugin file of an index: what it declares, read offline or taken from the cache.
public struct IndexedPlugin: Sendable, Hashable {
    /// The full path: the folder and the file name.
    public let path: String
    /// The file's name in its folder.
    public let fileName: String
    public let stamp: PluginFileStamp
    /// The GNU build-id in hex, when the file has one. A loaded plugin whose build-id differs was replaced
    /// after indexing.
    public let buildID: String?
    /// Whether the file carries the BeeHive note (discovery reads its records once it is loaded).
    public let isAnnotated: Bool
    /// Its records, valid ones only; each record's origin names this file.
    public let records: [AnnotationRecord]
    /// True when the records came from the cache and the file was not opened.
    public let isFromCache: Bool

    /// Whether a host loads it when its folder is added rather than on first use: it carries a module that is
    /// not on-demand (`ondemand=1`), which must take part in the launch order.
    public var loadsAtLaunch: Bool {
        records.contains { record in
            guard record.kind == .module, case .module(let module) = record.payload else { return false }
            return !module.isOnDemand
        }
    }

    @_spi(BeeHiveInternals)
    public init(
        path: String, fileName: String, stamp: PluginFileStamp, buildID: String?, isAnnotated: Bool,
        records: some Sequence<AnnotationRecord>, isFromCache: Bool
    ) {
        self.path = path
        self.fileName = fileName
        self.stamp = stamp
        self.buildID = buildID
        self.isAnnotated = isAnnotated
        self.records = Array(records)
        self.isFromCache = isFromCache
    }
}
