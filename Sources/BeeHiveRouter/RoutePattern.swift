/// A route pattern, checked and expanded: `/user/view/:id`, `/files/*`, `/the(/foo/:a)(/bar/:b)`,
/// `/user#/view/:id`.
///
/// - `:name` matches one component and exposes it under `name`.
/// - `*`, last only, matches the remaining components (none included), exposed under
///   ``RouteParameters/ReservedKey/wildcardComponents``.
/// - `( )` marks an optional part; groups may sit anywhere and nest, and expand to every combination, longest
///   first (JLRoutes' order).
/// - `#` starts a fragment path, matched against the URL's fragment (`myapp://user#/view/42`).
/// - Other components match literally, case-sensitively, after percent-decoding on both sides.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One concrete pattern produced by expanding the optional groups.
    struct Expansion: Sendable, Hashable {
        enum Segment: Sendable, Hashable {
            case literal(String)
            case variable(String)
            case fragmentMarker
            case wildcard
        }

        let text: String
        let segments: [Segment]
        /// The variable names in order of appearance, one per `.variable` segment.
        let variableNames: [String]
        let hasWildcard: Bool
    }

    /// The most expansions one pattern may produce: ten independent optional groups.
    public static let maximumExpansionCount = 1024

    /// The pattern as written.
    public let text: String
    let expansions: [Expansion]

    public init(_ text: String) throws(RoutePatternError) {
        guard !text.isEmpty else { throw RoutePatternError(pattern: text, reason: .emptyPattern) }
        if text.contains("?") { throw RoutePatternError(pattern: text, reason: .queryInPattern) }
        if text.utf8.lazy.filter({ $0 == UInt8(ascii: "#") }).count > 1 {
            throw RoutePatternError(pattern: text, reason: .multipleFragments)
        }
        let pieces = try Self.parseGroups(text)
        let count = Self.expansionCount(pieces)
        guard count <= Self.maximumExpansionCount else {
            throw RoutePatternError(pattern: text, reason: .tooManyExpansions(count: count, limit: Self.maximumExpansionCount))
        }
        var seen = Set<String>()
        var expansions: [Expansion] = []
        for variant in Self.variants(pieces) {
            let expansion = try Self.expansion(of: variant, pattern: text)
            if seen.insert(expansion.text).inserted { expansions.append(expansion) }
        }
        // JLRoutes registers the longest (most specific) expansions first; the sort is stable, so equal lengths
        // keep the combination order.
        self.expansions = expansions.enumerated()
            .sorted { ($0.element.text.count, $1.offset) > ($1.element.text.count, $0.offset) }
            .map(\.element)
        self.text = text
    }

    /// The concrete patterns the optional groups expand to, in the order they are tried.
    public var expandedPatterns: [String] { expansions.map(\.text) }

    /// Every variable name of every expansion, in order of first appearance.
    public var variableNames: [String] {
        var names: [String] = []
        for expansion in expansions {
            for name in expansion.variableNames where !names.contains(name) { names.append(name) }
        }
        return names
    }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    // MARK: Optional groups

    private indirect enum Piece {
        case text(String)
        case group([Piece])
    }

    private static func parseGroups(_ text: String) throws(RoutePatternError) -> [Piece] {
        func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError { RoutePatternError(pattern: text, reason: reason) }
        var stack: [(pieces: [Piece], offset: Int)] = [([], 0)]
        var literal = ""
        for (offset, character) in text.enumerated() {
            switch character {
            case "(":
                if !literal.isEmpty { stack[stack.count - 1].pieces.append(.text(literal)) }
                literal = ""
                stack.append(([], offset))
            case ")":
                guard stack.count > 1 else { throw fail(.unopenedGroup(offset: offset)) }
                if !literal.isEmpty { stack[stack.count - 1].pieces.append(.text(literal)) }
                literal = ""
                let group = stack.removeLast()
                guard !group.pieces.isEmpty else { throw fail(.emptyGroup(offset: group.offset)) }
                stack[stack.count - 1].pieces.append(.group(group.pieces))
            default:
                literal.append(character)
            }
        }
        guard stack.count == 1 else { throw fail(.unclosedGroup(offset: stack[stack.count - 1].offset)) }
        if !literal.isEmpty { stack[0].pieces.append(.text(literal)) }
        return stack[0].pieces
    }

    private static func expansionCount(_ pieces: [Piece]) -> Int {
        var count = 1
        for case .group(let inner) in pieces {
            count = count.multipliedReportingOverflow(by: 1 + expansionCount(inner)).partialValue
            if count > maximumExpansionCount { return count }
        }
        return count
    }

    /// Every combination with and without each group. The first group varies fastest, which is the order
    /// JLRoutes generates before sorting by length.
    private static func variants(_ pieces: [Piece]) -> [String] {
        var results = [""]
        for piece in pieces {
            switch piece {
            case .text(let text):
                results = results.map { $0 + text }
            case .group(let inner):
                let options = [""] + variants(inner)
                var next: [String] = []
                next.reserveCapacity(results.count * options.count)
                for option in options {
                    for prefix in results { next.append(prefix + option) }
                }
                results = next
            }
        }
        return results
    }

    // MARK: Components

    private static func expansion(of variant: String, pattern: String) throws(RoutePatternError) -> Expansion {
        func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError { RoutePatternError(pattern: pattern, reason: reason) }
        let parts = variant.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var segments: [Expansion.Segment] = []
        var names: [String] = []
        var texts: [String] = []
        func add(_ components: Substring) throws(RoutePatternError) {
            for component in components.split(separator: "/") {
                if segments.last == .wildcard { throw fail(.wildcardNotLast) }
                texts.append(String(component))
                if component == "*" {
                    segments.append(.wildcard)
                } else if component.first == ":" {
                    let name = String(component.dropFirst())
                    guard !name.isEmpty else { throw fail(.emptyVariableName) }
                    guard !RouteParameters.ReservedKey.all.contains(name) else { throw fail(.reservedVariableName(name: name)) }
                    guard !names.contains(name) else { throw fail(.duplicateVariable(name: name)) }
                    names.append(name)
                    segments.append(.variable(name))
                } else {
                    segments.append(.literal(PercentDecoding.decode(component, plusAsSpace: false)))
                }
            }
        }
        try add(parts[0])
        var text = "/" + texts.joined(separator: "/")
        if parts.count == 2 {
            if segments.last == .wildcard { throw fail(.wildcardNotLast) }
            segments.append(.fragmentMarker)
            let pathCount = texts.count
            try add(parts[1])
            let fragment = texts[pathCount...]
            text += fragment.isEmpty ? "#" : "#/" + fragment.joined(separator: "/")
        }
        return Expansion(text: text, segments: segments, variableNames: names, hasWildcard: segments.last == .wildcard)
    }
}
