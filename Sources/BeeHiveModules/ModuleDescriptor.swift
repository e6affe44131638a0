@_spi(BeeHiveInternals) import BeeHiveRegistry

/// What the manager knows about one registered module: its name, its place in the order and its source.
public struct ModuleDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The fully qualified type name.
    public let name: String
    public let level: ModuleLevel
    /// Higher starts earlier within a level.
    public let priority: Int
    /// Initialized off the startup path (BeeHive's `BH_EXPORT_MODULE(YES)`).
    public let isAsync: Bool
    public let dependencies: [String]
    public let source: ModuleSource

    package init(
        name: String, level: ModuleLevel, priority: Int, isAsync: Bool, dependencies: [String], source: ModuleSource
    ) {
        self.name = name
        self.level = level
        self.priority = priority
        self.isAsync = isAsync
        self.dependencies = dependencies
        self.source = source
    }

    public var description: String {
        "\(name) (\(level.rawValue), priority \(priority)\(isAsync ? ", async" : ""), from \(source))"
    }
}
