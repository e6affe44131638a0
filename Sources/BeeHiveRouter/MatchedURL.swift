/// What a match read from its URL, kept as component indices and decoded only when a value is asked for: a
/// handler that declines without looking costs one allocation (this object; up to eight captures, as many as
/// the URL keeps inline, are stored inline), not a dictionary and a string per value.
final class MatchedURL: Sendable {
    private let url: RouteURL
    /// The matched expansion's variables, in path order.
    private let variableNames: [String]
    private let wildcardStart: Int?
    private let plusAsSpace: Bool
    /// The index of the component each variable captured: inline when there are at most eight, else all spilled.
    private let inlineCaptures: (Int, Int, Int, Int, Int, Int, Int, Int)
    private let spilledCaptures: [Int]

    init(_ url: RouteURL, variableNames: [String], captures: UnsafeBufferPointer<Int>, wildcardStart: Int?, plusAsSpace: Bool) {
        self.url = url
        self.variableNames = variableNames
        self.wildcardStart = wildcardStart
        self.plusAsSpace = plusAsSpace
        func capture(_ position: Int) -> Int { position < captures.count ? captures[position] : 0 }
        inlineCaptures = (capture(0), capture(1), capture(2), capture(3), capture(4), capture(5), capture(6), capture(7))
        spilledCaptures = captures.count > 8 ? Array(captures) : []
    }

    /// The value of a route variable, else of the query items with this name (every value when repeated).
    func value(forKey key: String) -> RouteParameters.Value? {
        if let position = variableNames.firstIndex(of: key) { return .string(variable(at: position)) }
        guard url.query != nil || url.fragmentQuery != nil else { return nil }
        var values: [String] = []
        url.forEachQueryItem(plusAsSpace: plusAsSpace) { name, value in
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
        url.forEachQueryItem(plusAsSpace: plusAsSpace) { name, value in RouteParameters.append(value, forKey: name, to: &values) }
        for (position, name) in variableNames.enumerated() { values[name] = .string(variable(at: position)) }
        return values
    }

    /// What the `*` matched; nil when the route has none.
    var wildcardComponents: [String]? {
        wildcardStart.map { start in url.components[start...].map { url.value(of: $0, plusAsSpace: plusAsSpace) } }
    }

    private func variable(at position: Int) -> String {
        let index: Int
        if spilledCaptures.isEmpty {
            index = withUnsafeBytes(of: inlineCaptures) { $0.load(fromByteOffset: position * MemoryLayout<Int>.stride, as: Int.self) }
        } else {
            index = spilledCaptures[position]
        }
        return url.value(of: url.components[index], plusAsSpace: plusAsSpace)
    }
}
