@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Where a service registration came from.
public enum ServiceSource: Sendable, Hashable, CustomStringConvertible {
    /// `ServiceManager.register` called in code, at this file and line.
    case code(fileID: String, line: Int)
    /// An entry of a service configuration file (plist or JSON); `entry` counts from 0.
    case configuration(path: String, entry: Int)
    /// A `BeeHiveService` annotation, with the object file, section and offset it was read from.
    case annotation(RecordOrigin)

    public var description: String {
        switch self {
        case .code(let fileID, let line): "\(fileID):\(line)"
        case .configuration(let path, let entry): "\(path) entry \(entry)"
        case .annotation(let origin): origin.description
        }
    }
}
