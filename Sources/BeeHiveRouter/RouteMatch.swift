/// A route that matched a URL, with the parameters its handler receives.
public struct RouteMatch: Sendable {
    public let route: RouteDescriptor
    public let parameters: RouteParameters
}
