/// The routes and the paths every router in the benchmark gets: the same patterns, registered in the same
/// order, and the same paths looked up.
///
/// Route `i` belongs to one of three shapes, in groups of 30 so that the tables branch as real apps do:
/// a variable at the end (`/api/v3/resource95/:id`), literals only (`/shop/c3/item94`), and a variable in the
/// middle (`/user/g3/:name/post93`). No path matches two routes, so every router must find the same route.
public struct RouteSet: Sendable {
    /// One pattern component, for the routers that take components instead of a pattern string.
    public enum Component: Equatable, Sendable {
        case literal(String)
        case variable(String)
    }

    public let patterns: [String]
    public let components: [[Component]]
    /// The paths looked up, spread evenly over the table, and the index of the route each one must match.
    public let lookups: [(path: String, route: Int)]

    public init(routes count: Int, lookups lookupCount: Int = 64) {
        var patterns: [String] = []
        var components: [[Component]] = []
        for index in 0..<count {
            let (pattern, parts) = Self.route(index)
            patterns.append(pattern)
            components.append(parts)
        }
        self.patterns = patterns
        self.components = components
        lookups = (0..<lookupCount).map { sample in
            let index = sample * count / lookupCount
            return (Self.path(index), index)
        }
    }

    /// The URLs of issue 14's `route()` target: those of the lookups whose route ends with a variable, each with a
    /// scheme and one query item (`app://api/v3/resource95/4295?q=5`).
    public var variableQueryURLs: [String] {
        lookups.enumerated().filter { $0.element.route % 3 == 0 }.map { "app:/" + $0.element.path + "?q=\($0.offset)" }
    }

    private static func route(_ index: Int) -> (String, [Component]) {
        let group = index / 30
        switch index % 3 {
        case 0:
            return ("/api/v\(group)/resource\(index)/:id",
                    [.literal("api"), .literal("v\(group)"), .literal("resource\(index)"), .variable("id")])
        case 1:
            return ("/shop/c\(group)/item\(index)", [.literal("shop"), .literal("c\(group)"), .literal("item\(index)")])
        default:
            return ("/user/g\(group)/:name/post\(index)",
                    [.literal("user"), .literal("g\(group)"), .variable("name"), .literal("post\(index)")])
        }
    }

    private static func path(_ index: Int) -> String {
        let group = index / 30
        switch index % 3 {
        case 0: return "/api/v\(group)/resource\(index)/\(4_200 + index)"
        case 1: return "/shop/c\(group)/item\(index)"
        default: return "/user/g\(group)/alice\(index)/post\(index)"
        }
    }
}
