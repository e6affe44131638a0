/// What a match read from its URL, kept as byte ranges of the URL's text and decoded only when a value is asked
/// for: a handler that declines without looking costs one allocation (this object), not a dictionary and a
/// string per value. Only the captured components and the query ranges are kept, not the whole parsed URL, so
/// making one copies a few words rather than every component.
final class MatchedURL: Sendable {
    private typealias Component = RouteURL.Component

    private let text: String
    private let query: Range<Int>?
    private let fragmentQuery: Range<Int>?
    /// The matched expansion's variables, in path order.
    private let variableNames: [String]
    private let plusAsSpace: Bool
    /// The component each variable captured: inline when there are at most eight, else all spilled.
    private let inlineCaptures: (Component, Component, Component, Component, Component, Component, Component, Component)
    private let spilledCaptures: [Component]
    /// What the `*` matched; nil when the route has none.
    private let wildcard: [Component]?

    init(
        _ url: borrowing RouteURL, variableNames: [String], captures: UnsafeBufferPointer<Int>, wildcardStart: Int?,
        plusAsSpace: Bool
    ) {
        text = url.text
        query = url.query
        fragmentQuery = url.fragmentQuery
        self.variableNames = variableNames
        self.plusAsSpace = plusAsSpace
        // Components are read one by one from the borrowed URL: a local copy of them moved about 200 bytes.
        inlineCaptures = (
            Self.capture(0, captures, url), Self.capture(1, captures, url), Self.capture(2, captures, url),
            Self.capture(3, captures, url), Self.capture(4, captures, url), Self.capture(5, captures, url),
            Self.capture(6, captures, url), Self.capture(7, captures, url)
        )
        if captures.count > 8 || wildcardStart != nil {
            let components = url.components
            spilledCaptures = captures.count > 8 ? captures.map { components[$0] } : []
            wildcard = wildcardStart.map { Array(components[$0...]) }
        } else {
            spilledCaptures = []
            wildcard = nil
        }
    }

    private static func capture(_ position: Int, _ captures: UnsafeBufferPointer<Int>, _ url: borrowing RouteURL) -> Component {
        guard position < captures.count else {
            return Component(start: 0, end: 0, isFragmentMarker: false, hasEscape: false, hasPlus: false)
        }
        return url.components[captures[position]]
    }

    /// The value of a route variable, else of the query items with this name (every value when repeated).
    func value(forKey key: String) -> RouteParameters.Value? {
        if let position = variableNames.firstIndex(of: key) { return .string(variable(at: position)) }
        guard query != nil || fragmentQuery != nil else { return nil }
        var values: [String] = []
        forEachQueryItem { name, value in
            if name == key { values.append(value) }
        }
        switch values.count {
        case 0: return nil
        case 1: return .string(values[0])
        default: return .strings(values)
        }
    }

    /// Every value, merged as JLRoutes merges them: query items, then route variables over them.
    var values: [String: RouteParameters.Value] {
        var values: [String: RouteParameters.Value] = [:]
        forEachQueryItem { name, value in RouteParameters.append(value, forKey: name, to: &values) }
        for (position, name) in variableNames.enumerated() { values[name] = .string(variable(at: position)) }
        return values
    }

    /// What the `*` matched; nil when the route has none.
    var wildcardComponents: [String]? {
        wildcard?.map { RouteURL.value(of: $0, in: text, plusAsSpace: plusAsSpace) }
    }

    private func forEachQueryItem(_ body: (_ name: String, _ value: String) -> Void) {
        RouteURL.forEachQueryItem(in: text, query: query, fragmentQuery: fragmentQuery, plusAsSpace: plusAsSpace, body)
    }

    private func variable(at position: Int) -> String {
        let component: Component
        if spilledCaptures.isEmpty {
            component = withUnsafeBytes(of: inlineCaptures) {
                $0.load(fromByteOffset: position * MemoryLayout<Component>.stride, as: Component.self)
            }
        } else {
            component = spilledCaptures[position]
        }
        return RouteURL.value(of: component, in: text, plusAsSpace: plusAsSpace)
    }
}
