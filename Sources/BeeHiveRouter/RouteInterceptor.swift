/// Runs before a URL is matched and can let it through, refuse it or send it elsewhere: the interceptor chain
/// a BeeHive "ModuleCore" puts in front of page handlers (login checks, feature switches, legacy URLs).
///
/// Global interceptors run first, then those of the URL's scheme, each group in the order added. They run for
/// ``Router/route(_:parameters:)`` only; ``Router/canRoute(_:)`` and ``Router/match(_:parameters:)`` look at the
/// tables alone.
public protocol RouteInterceptor: Sendable {
    func intercept(_ request: RouteRequest) -> InterceptorDecision
}

/// What an interceptor decided about a URL.
public enum InterceptorDecision: Sendable, Hashable {
    /// Let the next interceptor, then the routes, see the URL.
    case proceed
    /// Stop: no route is tried, and routing reports ``RouteResult/rejected(_:)`` with the reason.
    case reject(reason: String)
    /// Route this URL instead, from the first interceptor on. The caller's parameters go along.
    case redirect(to: String)
}

/// Identifies an added interceptor, for removing it later.
public struct InterceptorID: Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt64

    public var description: String { "interceptor #\(rawValue)" }
}

/// An interceptor made of a closure.
struct ClosureInterceptor: RouteInterceptor {
    let body: @Sendable (RouteRequest) -> InterceptorDecision

    func intercept(_ request: RouteRequest) -> InterceptorDecision { body(request) }
}
