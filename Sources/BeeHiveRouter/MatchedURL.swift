/// What a match read from its URL, as little as says it all: the URL's text, the matched route and how the URL
/// was read. Values are decoded only when asked for, by reading the text again; every pattern component but `*`
/// matches exactly one URL component, so the pattern says which components its variables and its wildcard took.
///
/// It keeps the route's ``RouteTemplate``, not its definition: the definition holds the handler, and a handler
/// that stores its parameters would then keep itself alive.
///
/// A value of four words with two references, not an object: making one allocates nothing and moving it through
/// the routing call copies little, so a handler that declines, or accepts, without looking pays for no value.
struct MatchedURL: Sendable {
    /// The URL, as routed.
    let text: String
    private(set) var template: RouteTemplate
    /// Which expansion of the definition's pattern matched.
    private var expansion: Int32
    private let plusAsSpace: Bool
    private let treatsHostAsPathComponent: Bool
    private let readsLikeJLRoutes: Bool

    /// Takes the text the router read, rather than copying it: a copy and its release were two atomic operations
    /// per routing call. The reading flags are the URL's own, not the router's current configuration: a URL read
    /// before a deferred plugin changed the configuration is matched as it was read, and must be read again that
    /// way.
    init(
        text: consuming String, candidate: RouteCandidate, plusAsSpace: Bool, treatsHostAsPathComponent: Bool, readsLikeJLRoutes: Bool
    ) {
        self.text = text
        template = candidate.template
        expansion = Int32(truncatingIfNeeded: candidate.expansion)
        self.plusAsSpace = plusAsSpace
        self.treatsHostAsPathComponent = treatsHostAsPathComponent
        self.readsLikeJLRoutes = readsLikeJLRoutes
    }

    /// The same URL matched by the next candidate, after a handler declined.
    mutating func retarget(_ candidate: RouteCandidate) {
        template = candidate.template
        expansion = Int32(truncatingIfNeeded: candidate.expansion)
    }

    /// The scheme of the route's table, or ``RouteParameters/globalScheme``.
    var scheme: String { template.scheme ?? RouteParameters.globalScheme }

    /// The value of a route variable, else of the query items with this name (every value when repeated).
    func value(forKey key: String) -> RouteParameters.Value? {
        let segments = template.pattern.expansions[Int(expansion)].segments
        return withURL { url in
            if let position = segments.firstIndex(of: .variable(key)) {
                return .string(RouteURL.value(of: url.components[position], in: text, plusAsSpace: plusAsSpace))
            }
            guard url.query != nil || url.fragmentQuery != nil else { return nil }
            var values: [String] = []
            url.forEachQueryItem(in: text, plusAsSpace: plusAsSpace) { name, value in
                if name == key { values.append(value) }
            }
            switch values.count {
            case 0: return nil
            case 1: return .string(values[0])
            default: return .strings(values)
            }
        }
    }

    /// Every value, merged as JLRoutes merges them: query items, then route variables over them.
    var values: [String: RouteParameters.Value] {
        let segments = template.pattern.expansions[Int(expansion)].segments
        return withURL { url in
            var values: [String: RouteParameters.Value] = [:]
            url.forEachQueryItem(in: text, plusAsSpace: plusAsSpace) { name, value in RouteParameters.append(value, forKey: name, to: &values) }
            for (position, segment) in segments.enumerated() {
                guard case .variable(let name) = segment else { continue }
                values[name] = .string(RouteURL.value(of: url.components[position], in: text, plusAsSpace: plusAsSpace))
            }
            return values
        }
    }

    /// What the `*` matched; nil when the route has none.
    var wildcardComponents: [String]? {
        let matched = template.pattern.expansions[Int(expansion)]
        guard matched.hasWildcard else { return nil }
        return withURL { url in
            url.components[(matched.segments.count - 1)...].map { RouteURL.value(of: $0, in: text, plusAsSpace: plusAsSpace) }
        }
    }

    /// Reads the text as the router read it, so the components and query are the ones the route matched.
    private func withURL<Result>(_ body: (borrowing RouteURL) -> Result) -> Result {
        let url = RouteURL(text, treatsHostAsPathComponent: treatsHostAsPathComponent, readsLikeJLRoutes: readsLikeJLRoutes)
        return body(url)
    }
}
