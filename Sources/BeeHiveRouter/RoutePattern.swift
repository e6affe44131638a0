/// A route pattern, checked and expanded: `/user/view/:id`, `/files/*`, `/the(/foo/:a)(/bar/:b)`,
/// `/user#/view/:id`.
///
/// - `:name` matches one component and exposes it under `name` (a lone `:` is a variable named `:`, as in
///   JLRoutes).
/// - `*`, last only, matches the remaining components (none included), exposed under
///   ``RouteParameters/ReservedKey/wildcardComponents``.
/// - `( )` marks an optional part; groups may sit anywhere and nest, and expand to every combination, longest
///   first (JLRoutes' order).
/// - `#` starts a fragment path, matched against the URL's fragment (`myapp://user#/view/42`).
/// - Other components match literally, case-sensitively, after percent-decoding on both sides.
/// - The empty pattern is the root, `/`; empty components (`/a//b/`) are ignored.
///
/// Parsing, counting and expanding are loops over the text with explicit stacks: the pattern's length and
/// nesting never reach the call stack.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// How a pattern's text is read.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// JLRoutes' reading of optional groups: every group and every run of text around groups is a whole
        /// path component, so `/user(s)/:id` expands to `/user/s/:id` and `/user/:id`. Without it, a group
        /// inside a component extends that component: `/users/:id` and `/user/:id`.
        public static let optionalGroupsAreComponents = Options(rawValue: 1 << 0)

        /// JLRoutes' reading of a trailing slash: it ends the pattern with an empty component, which no URL
        /// component fills (URLs' empty components are skipped), so `/foo/` never matches. Without it, the
        /// trailing slash is ignored and `/foo/` is `/foo`. A `*` before it still takes the rest.
        public static let trailingSlashIsComponent = Options(rawValue: 1 << 1)
    }

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
    public let options: Options
    let expansions: [Expansion]

    public init(_ text: String, options: Options = []) throws(RoutePatternError) {
        func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError { RoutePatternError(pattern: text, reason: reason) }
        if text.utf8.contains(UInt8(ascii: "?")) { throw fail(.queryInPattern) }
        if text.utf8.lazy.filter({ $0 == UInt8(ascii: "#") }).count > 1 { throw fail(.multipleFragments) }
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") }) else {
            // No groups, the common case: one expansion, the pattern itself, with nothing to combine or sort.
            expansions = [try Self.expansion(of: text, pattern: text, trailingSlashIsComponent: options.contains(.trailingSlashIsComponent))]
            self.text = text
            self.options = options
            return
        }
        let tokens = try Self.tokens(of: text, options: options)
        let count = Self.expansionCount(tokens)
        guard count <= Self.maximumExpansionCount else {
            throw fail(.tooManyExpansions(count: count, limit: Self.maximumExpansionCount))
        }
        // Read as components, JLRoutes trims the slashes of every part of a pattern with groups, so a trailing
        // slash ends no expansion with an empty component: `/a(/b)/` is `/a/b` and `/a`.
        let trailingSlashIsComponent =
            options.contains(.trailingSlashIsComponent) && !options.contains(.optionalGroupsAreComponents)
        var seen = Set<String>()
        var expansions: [Expansion] = []
        for variant in Self.variants(tokens) {
            let expansion = try Self.expansion(of: variant, pattern: text, trailingSlashIsComponent: trailingSlashIsComponent)
            if seen.insert(expansion.text).inserted { expansions.append(expansion) }
        }
        // JLRoutes registers the longest (most specific) expansions first, comparing UTF-16 lengths; the sort is
        // stable, so equal lengths keep the combination order.
        self.expansions = expansions.enumerated()
            .map { (length: $0.element.text.utf16.count, offset: $0.offset, expansion: $0.element) }
            .sorted { ($0.length, $1.offset) > ($1.length, $0.offset) }
            .map(\.expansion)
        self.text = text
        self.options = options
    }

    /// The concrete patterns the optional groups expand to, in the order they are tried.
    public var expandedPatterns: [String] { expansions.map(\.text) }

    /// Every variable name of every expansion, in order of first appearance.
    public var variableNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for expansion in expansions {
            for name in expansion.variableNames where seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.text == rhs.text && lhs.options == rhs.options
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(options.rawValue)
    }

    // MARK: Optional groups

    private enum Token {
        case text(String)
        case open
        case close
    }

    /// The pattern as a flat list of text runs and group brackets, checked to be balanced.
    private static func tokens(of text: String, options: Options) throws(RoutePatternError) -> [Token] {
        func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError { RoutePatternError(pattern: text, reason: reason) }
        let separate = options.contains(.optionalGroupsAreComponents)
        var tokens: [Token] = []
        var openOffsets: [Int] = []
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            tokens.append(.text(separate ? "/" + literal + "/" : literal))
            literal = ""
        }
        // Unicode scalars, not characters: a combining mark after `/` or `(` must not hide it, since URLs are
        // split on bytes.
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "(":
                flush()
                tokens.append(.open)
                openOffsets.append(offset)
            case ")":
                guard let open = openOffsets.popLast() else { throw fail(.unopenedGroup(offset: offset)) }
                flush()
                if case .open = tokens.last { throw fail(.emptyGroup(offset: open)) }
                tokens.append(.close)
            default:
                literal.unicodeScalars.append(scalar)
            }
        }
        if let open = openOffsets.last { throw fail(.unclosedGroup(offset: open)) }
        flush()
        return tokens
    }

    /// How many combinations the groups make: each group multiplies its enclosing level by one plus its own
    /// count. Saturates instead of overflowing.
    private static func expansionCount(_ tokens: [Token]) -> Int {
        var levels = [1]
        for token in tokens {
            switch token {
            case .text: continue
            case .open: levels.append(1)
            case .close:
                let inner = levels.removeLast()
                let (options, overflowA) = inner.addingReportingOverflow(1)
                let (product, overflowB) = levels[levels.count - 1].multipliedReportingOverflow(by: options)
                levels[levels.count - 1] = overflowA || overflowB ? Int.max : product
            }
        }
        return levels[0]
    }

    /// Every combination with and without each group. The first group varies fastest, which is the order
    /// JLRoutes generates before sorting by length. Called only once the count is known to be small.
    private static func variants(_ tokens: [Token]) -> [String] {
        var levels: [[String]] = [[""]]
        for token in tokens {
            switch token {
            case .text(let text):
                levels[levels.count - 1] = levels[levels.count - 1].map { $0 + text }
            case .open:
                levels.append([""])
            case .close:
                let options = [""] + levels.removeLast()
                let prefixes = levels[levels.count - 1]
                var next: [String] = []
                next.reserveCapacity(prefixes.count * options.count)
                for option in options {
                    for prefix in prefixes { next.append(prefix + option) }
                }
                levels[levels.count - 1] = next
            }
        }
        return levels[0]
    }

    // MARK: Components

    /// One expansion's components, split on the bytes `/` and `#` (ASCII, so never inside another character's
    /// bytes): one pass, and a string made only for each component's text.
    private static func expansion(
        of variant: String, pattern: String, trailingSlashIsComponent: Bool
    ) throws(RoutePatternError) -> Expansion {
        func fail(_ reason: RoutePatternError.Reason) -> RoutePatternError { RoutePatternError(pattern: pattern, reason: reason) }
        var segments: [Expansion.Segment] = []
        var names: [String] = []
        // Filled once there are enough names that searching the list would make many variables quadratic.
        var nameSet: Set<String>?
        var text = "/"
        var inFragment = false
        var isFirstPathComponent = true
        func add(_ component: Substring) throws(RoutePatternError) {
            if segments.last == .wildcard { throw fail(.wildcardNotLast) }
            if inFragment || !isFirstPathComponent { text += "/" }
            isFirstPathComponent = false
            text += component
            let utf8 = component.utf8
            if utf8.count == 1 && utf8.first == UInt8(ascii: "*") {
                segments.append(.wildcard)
            } else if utf8.first == UInt8(ascii: ":") {
                // JLRoutes keeps the `:` of a lone `:` as the name.
                let name = utf8.count == 1 ? ":" : String(component.unicodeScalars.dropFirst())
                guard !RouteParameters.ReservedKey.all.contains(name) else { throw fail(.reservedVariableName(name: name)) }
                if nameSet == nil && names.count >= 16 { nameSet = Set(names) }
                let isNew = nameSet != nil ? nameSet!.insert(name).inserted : !names.contains(name)
                guard isNew else { throw fail(.duplicateVariable(name: name)) }
                names.append(name)
                segments.append(.variable(name))
            } else {
                segments.append(.literal(PercentDecoding.decode(component, plusAsSpace: false)))
            }
        }
        let bytes = variant.utf8
        var componentStart = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "#") {
                if componentStart != index { try add(variant[componentStart..<index]) }
                // The first `#` starts the fragment; the initializer refused patterns with more than one.
                if byte == UInt8(ascii: "#") && !inFragment {
                    if segments.last == .wildcard { throw fail(.wildcardNotLast) }
                    segments.append(.fragmentMarker)
                    text += "#"
                    inFragment = true
                }
                componentStart = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if componentStart != bytes.endIndex { try add(variant[componentStart...]) }
        // An empty literal: URL components are never empty, so nothing reaches the routes stored past it.
        if trailingSlashIsComponent, variant != "/", variant.utf8.last == UInt8(ascii: "/"), segments.last != .wildcard
        {
            segments.append(.literal(""))
            text += "/"
        }
        return Expansion(text: text, segments: segments, variableNames: names, hasWildcard: segments.last == .wildcard)
    }
}
