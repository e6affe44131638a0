/// Identifies an added interceptor, for removing it later.
public struct InterceptorID: Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt64

    public var description: String { "interceptor #\(rawValue)" }
}
