@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Where a module's registration came from.
public enum ModuleSource: Sendable, Hashable, CustomStringConvertible {
    /// `ModuleManager.register(_:)`.
    case code
    /// A JSON or property-list file; `entry` is the position in its `moduleClasses` array.
    case configurationFile(path: String, entry: Int)
    /// A `BeeHiveMod`/`BeeHiveModule` record in an ELF section.
    case annotation(RecordOrigin)

    public var description: String {
        switch self {
        case .code: "code"
        case .configurationFile(let path, let entry): "configuration file \(path) (moduleClasses[\(entry)])"
        case .annotation(let origin): "annotation in \(origin)"
        }
    }
}
