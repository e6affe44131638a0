/// A route that matched a URL, with the parameters its handler receives.
public struct RouteMatch: Sendable {
    public let parameters: RouteParameters

    /// The parameters of a match always hold it (nothing changes them after the router made them), so the route
    /// is read from them rather than stored twice: a match costs one reference to the route, not two.
    init(parameters: RouteParameters) {
        precondition(parameters.hasMatch, "a match's parameters hold the route they matched")
        self.parameters = parameters
    }

    public var route: RouteDescriptor { RouteDescriptor(parameters.matchedTemplate!) }
}
