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
