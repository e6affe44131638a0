/// Identifies one `addRoute` registration, for removing it later.
public struct RouteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let rawValue: UInt64

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "route #\(rawValue)" }
}
