extension Router {
    /// Registers a route whose handler receives the match decoded as `Route`: every stored property is a
    /// parameter of its name, read as its type.
    ///
    /// ```swift
    /// struct UserRoute: Decodable { var id: Int; var tab: String? }
    /// try router.addRoute("/user/:id", as: UserRoute.self) { route, _ in show(user: route.id, tab: route.tab); return true }
    /// ```
    ///
    /// A match whose parameters do not decode (`/user/abc` for an `Int` id) is declined, so the next matching
    /// route tries; the ``RouteParameterError`` is logged at debug level.
    @discardableResult
    public func addRoute<Route: Decodable & SendableMetatype>(
        _ pattern: String, scheme: String? = nil, priority: Int = 0, as type: Route.Type, fileID: String = #fileID,
        line: Int = #line, handler: @escaping @Sendable (_ route: Route, _ parameters: RouteParameters) -> Bool
    ) throws(RoutePatternError) -> RouteID {
        let logger = logger
        return try register(
            [pattern], scheme: scheme, priority: priority,
            handler: { parameters in
                let route: Route
                do {
                    route = try parameters.decode(Route.self)
                } catch {
                    logger.debug("typed route declined", metadata: ["url": "\(parameters.url ?? "")", "error": "\(error)"])
                    return false
                }
                return handler(route, parameters)
            },
            handlerName: .decodedType(Route.self), origin: .source(fileID: fileID, line: line))[0]
    }
}
