/// How a routing call ended.
public enum RouteResult: Sendable {
    /// A route matched and its handler returned true.
    case handled(RouteMatch)
    /// No route handled the URL (none matched, or every matching handler returned false).
    case unmatched(RouteRequest)
    /// An interceptor refused the URL.
    case rejected(RouteRejection)

    public var isHandled: Bool {
        if case .handled = self { return true }
        return false
    }

    /// The match that handled the URL.
    public var match: RouteMatch? {
        if case .handled(let match) = self { return match }
        return nil
    }
}

/// A route that matched a URL, with the parameters its handler receives.
public struct RouteMatch: Sendable {
    public let route: RouteDescriptor
    public let parameters: RouteParameters
}

/// An interceptor's refusal.
public struct RouteRejection: Sendable, CustomStringConvertible {
    /// The URL refused (after redirects, the URL redirected to).
    public let url: String
    public let reason: String
    public let interceptor: InterceptorID

    public var description: String { "\(interceptor) rejected \(url): \(reason)" }
}
