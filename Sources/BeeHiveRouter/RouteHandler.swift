/// A type that handles a route, instantiated for every match: JLRoutes' `handlerBlockForTargetClass`, and what
/// `BeeHiveRoute("/user/view/:id", App.UserRouteHandler)` names in C.
///
/// Types named in annotations must be top-level classes to be found by name (`Module.Type`); other types need
/// their mangled name. The type itself travels to whichever thread routes (`SendableMetatype`); instances never
/// leave the routing call that made them, so they need not be `Sendable`.
public protocol RouteHandler: SendableMetatype {
    init()
    /// Handles the match; returning false lets the next matching route try, as a JLRoutes block returning NO.
    func handle(_ parameters: RouteParameters) -> Bool
}
