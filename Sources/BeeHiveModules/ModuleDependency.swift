/// A module another module needs, named by type or by fully qualified name (`"Shop.NetworkModule"`).
public struct ModuleDependency: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.init(name)
    }

    public static func module(_ type: any Module.Type) -> ModuleDependency {
        ModuleDependency(type.moduleName)
    }

    public var description: String { name }
}
