/// Runs before a URL is matched and can let it through, refuse it or send it elsewhere: the interceptor chain
/// a BeeHive "ModuleCore" puts in front of page handlers (login checks, feature switches, legacy URLs).
///
/// Global interceptors run first, then those of the URL's scheme, each group in the order added. They run for
/// ``Router/route(_:parameters:)`` only; ``Router/canRoute(_:)`` and ``Router/match(_:parameters:)`` look at the
/// tables alone.
public protocol RouteInterceptor: Sendable {
    func intercept(_ request: RouteRequest) -> InterceptorDecision
}

/// An interceptor made of a closure.
struct ClosureInterceptor: RouteInterceptor {
    let body: @Sendable (RouteRequest) -> InterceptorDecision

    func intercept(_ request: RouteRequest) -> InterceptorDecision { body(request) }
}
