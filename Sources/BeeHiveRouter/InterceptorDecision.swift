/// What an interceptor decided about a URL.
public enum InterceptorDecision: Sendable, Hashable {
    /// Let the next interceptor, then the routes, see the URL.
    case proceed
    /// Stop: no route is tried, and routing reports ``RouteResult/rejected(_:)`` with the reason.
    case reject(reason: String)
    /// Route this URL instead, from the first interceptor on. The caller's parameters go along.
    case redirect(to: String)
}
