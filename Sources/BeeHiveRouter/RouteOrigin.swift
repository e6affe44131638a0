@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Where a route was registered, kept as given and put into words only when a descriptor's `origin` is read:
/// registering from an annotation record then makes no string of the record's object path and text, which only
/// a route listing shows.
enum RouteOrigin: Sendable {
    /// The `addRoute` call's `#fileID` and `#line`.
    case source(fileID: String, line: Int)
    /// The annotation record the route was registered from.
    case record(AnnotationRecord)

    var description: String {
        switch self {
        case .source(let fileID, let line): "\(fileID):\(line)"
        case .record(let record): "\(record.origin) \"\(record.text)\""
        }
    }
}
