/// An interceptor's refusal.
public struct RouteRejection: Sendable, CustomStringConvertible {
    /// The URL refused (after redirects, the URL redirected to).
    public let url: String
    public let reason: String
    public let interceptor: InterceptorID

    public var description: String { "\(interceptor) rejected \(url): \(reason)" }
}
