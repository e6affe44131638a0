@_spi(BeeHiveInternals) import BeeHiveRouter

/// A plain router written from docs/routing.md alone, to check the real one against: URLs are read with string
/// operations, patterns are expanded by recursion, and routing scans a list of every expansion in rank order.
/// No trie, no byte tricks, no caching: what it does is what the docs say, slowly.
struct OracleRouter {
    enum Behaviour: Hashable {
        case accepts
        case declines
        /// A typed route of ``OracleTypedRoute``: declines unless the parameter `n` reads as an `Int`.
        case typed
    }

    struct Route {
        let tag: Int
        let pattern: String
        let options: RoutePattern.Options
        let scheme: String?
        let priority: Int
        let behaviour: Behaviour
    }

    enum Interceptor: Hashable {
        /// Rejects URLs whose first path component is this.
        case rejectsFirst(String)
        /// Redirects URLs whose first path component is this to the URL.
        case redirectsFirst(String, to: String)
    }

    struct Table {
        var routes: [Route] = []
        var fallsBack = false
        var hasUnmatchedHandler = false
    }

    enum Outcome: Equatable, CustomStringConvertible {
        case handled(tag: Int)
        /// With the table whose unmatched-URL handler was called: its scheme, `global`, or nil for none.
        case unmatched(handler: String?)
        case rejected(interceptor: Int)
        case redirectLoop
        case tooManyRedirects

        var description: String {
            switch self {
            case .handled(let tag): "handled by route \(tag)"
            case .unmatched(let handler): "unmatched (unmatched-URL handler: \(handler ?? "none"))"
            case .rejected(let interceptor): "rejected by interceptor \(interceptor)"
            case .redirectLoop: "redirect loop"
            case .tooManyRedirects: "too many redirects"
            }
        }
    }

    /// A handler's try: the route, and every parameter it saw, values written as ``OracleRouter/text(of:)``.
    struct Try: Equatable, CustomStringConvertible {
        let tag: Int
        let parameters: [String: String]
        var description: String { "route \(tag) \(parameters.sorted { $0.key < $1.key })" }
    }

    var configuration = RouterConfiguration()
    var global = Table()
    var schemes: [String: Table] = [:]
    /// Global interceptors (scheme nil) and each scheme's, in the order added; the tag is the order of adding.
    var interceptors: [(tag: Int, scheme: String?, rule: Interceptor)] = []

    // MARK: The table

    /// Each route's expansions, by tag, made when it is added.
    private(set) var expansionsOfRoute: [Int: [Expansion]] = [:]

    mutating func add(_ route: Route) {
        expansionsOfRoute[route.tag] = Self.expansions(of: route.pattern, options: route.options)
        if let scheme = route.scheme?.lowercased() {
            schemes[scheme, default: Table()].routes.append(route)
        } else {
            global.routes.append(route)
        }
    }

    mutating func remove(tag: Int) {
        global.routes.removeAll { $0.tag == tag }
        for name in schemes.keys { schemes[name]!.routes.removeAll { $0.tag == tag } }
    }

    mutating func removeRoutes(withPattern pattern: String, scheme: String?) {
        if let scheme = scheme?.lowercased() {
            schemes[scheme]?.routes.removeAll { $0.pattern == pattern }
        } else {
            global.routes.removeAll { $0.pattern == pattern }
        }
    }

    mutating func setFallsBack(_ fallsBack: Bool, scheme: String) {
        schemes[scheme.lowercased(), default: Table()].fallsBack = fallsBack
    }

    mutating func setUnmatchedHandler(scheme: String?) {
        if let scheme {
            schemes[scheme.lowercased(), default: Table()].hasUnmatchedHandler = true
        } else {
            global.hasUnmatchedHandler = true
        }
    }

    // MARK: Routing

    /// What routing `url` does, and every handler tried, in order.
    func route(_ url: String) -> (outcome: Outcome, tries: [Try]) {
        var current = url
        var visited: [String] = []
        redirecting: while true {
            let reading = read(current)
            let scheme = reading.scheme?.lowercased()
            let globalInterceptors = interceptors.filter { $0.scheme == nil }
            let scoped = interceptors.filter { $0.scheme != nil && $0.scheme == scheme }
            for interceptor in globalInterceptors + scoped {
                let first = reading.components.first.map { value(of: $0, plusAsSpace: configuration.decodesPlusSymbols) }
                switch interceptor.rule {
                case .rejectsFirst(let component) where first == component:
                    return (.rejected(interceptor: interceptor.tag), [])
                case .redirectsFirst(let component, let target) where first == component:
                    visited.append(current)
                    if visited.contains(target) { return (.redirectLoop, []) }
                    if visited.count > configuration.maximumRedirects { return (.tooManyRedirects, []) }
                    current = target
                    continue redirecting
                default:
                    continue
                }
            }
            var tries: [Try] = []
            for (route, parameters, n) in candidates(reading, url: current) {
                // A typed route whose parameters do not decode declines before its handler runs.
                if route.behaviour == .typed && n.flatMap({ Int($0) }) == nil { continue }
                tries.append(Try(tag: route.tag, parameters: parameters))
                if route.behaviour != .declines { return (.handled(tag: route.tag), tries) }
            }
            // The scheme table's handler, or the global one when the URL has no scheme table or its table has
            // none and falls back.
            let handler: String?
            if let scheme, let table = schemes[scheme] {
                handler = table.hasUnmatchedHandler ? scheme : table.fallsBack && global.hasUnmatchedHandler ? "global" : nil
            } else {
                handler = global.hasUnmatchedHandler ? "global" : nil
            }
            return (.unmatched(handler: handler), tries)
        }
    }

    /// The route `match(_:)` gives, without interceptors or handlers: the first that fits.
    func firstMatch(_ url: String) -> Int? {
        candidates(read(url), url: url).first?.route.tag
    }

    /// Every expansion that fits, in the order tried: the scheme's table, then the global one if it falls back.
    private func candidates(_ reading: Reading, url: String) -> [(route: Route, parameters: [String: String], n: String?)] {
        var tables: [Table] = []
        if let scheme = reading.scheme?.lowercased(), let table = schemes[scheme] {
            tables.append(table)
            if table.fallsBack { tables.append(global) }
        } else {
            tables.append(global)
        }
        return tables.flatMap { table in
            rankOrder(table.routes).compactMap { route, expansion in
                // The scheme as the route was registered with it.
                let name = route.scheme ?? RouteParameters.globalScheme
                return match(expansion, reading, url: url, route: route, scheme: name).map { (route, $0.parameters, $0.n) }
            }
        }
    }

    /// Higher priority first, equal priorities in registration order; each route's expansions in their order.
    private func rankOrder(_ routes: [Route]) -> [(Route, Expansion)] {
        let ordered = routes.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }
        return ordered.flatMap { _, route in expansionsOfRoute[route.tag]!.map { (route, $0) } }
    }

    // MARK: Patterns

    enum Segment: Equatable {
        case literal(String)
        case variable(String)
        case marker
        case wildcard
    }

    struct Expansion {
        let text: String
        let segments: [Segment]
    }

    /// The docs' expansion: every combination with and without each optional group, the first group varying
    /// fastest; identical expansions once; longest first (UTF-16 length of the listed text), ties in that order.
    static func expansions(of pattern: String, options: RoutePattern.Options) -> [Expansion] {
        let hasGroups = pattern.contains("(")
        let asComponents = options.contains(.optionalGroupsAreComponents) && hasGroups
        var position = pattern.startIndex
        let variants = hasGroups ? combinations(pattern, &position, asComponents: asComponents) : [pattern]
        var seen: Set<String> = []
        var expansions: [Expansion] = []
        for variant in variants {
            let trailingSlash = options.contains(.trailingSlashIsComponent) && !asComponents
            let expansion = expansion(of: variant, trailingSlash: trailingSlash)
            if seen.insert(expansion.text).inserted { expansions.append(expansion) }
        }
        return expansions.enumerated()
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element.text.utf16.count, rhs.element.text.utf16.count)
                return left != right ? left > right : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    /// The variants of the text from `position` to its end or to the `)` closing the group being read.
    private static func combinations(_ pattern: String, _ position: inout String.Index, asComponents: Bool) -> [String] {
        var variants = [""]
        var run = ""
        func append(_ options: [String]) {
            variants = options.flatMap { option in variants.map { $0 + option } }
        }
        func flushRun() {
            guard !run.isEmpty else { return }
            append([asComponents ? "/" + run + "/" : run])
            run = ""
        }
        while position < pattern.endIndex {
            let character = pattern[position]
            position = pattern.index(after: position)
            if character == "(" {
                flushRun()
                append([""] + combinations(pattern, &position, asComponents: asComponents))
            } else if character == ")" {
                break
            } else {
                run.append(character)
            }
        }
        flushRun()
        return variants
    }

    private static func expansion(of variant: String, trailingSlash: Bool) -> Expansion {
        let hashSplit = variant.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = hashSplit[0].split(separator: "/").map(String.init)
        let fragment = hashSplit.count > 1 ? hashSplit[1].split(separator: "/").map(String.init) : nil
        func segment(_ component: String) -> Segment {
            if component == "*" { return .wildcard }
            if component.hasPrefix(":") { return .variable(component == ":" ? ":" : String(component.dropFirst())) }
            return .literal(decode(component, plusAsSpace: false))
        }
        var segments = path.map(segment)
        var text = "/" + path.joined(separator: "/")
        if let fragment {
            segments.append(.marker)
            segments += fragment.map(segment)
            text += "#" + fragment.map { "/" + $0 }.joined()
        }
        if trailingSlash && variant != "/" && variant.hasSuffix("/") && segments.last != .wildcard {
            segments.append(.literal(""))
            text += "/"
        }
        return Expansion(text: text, segments: segments)
    }

    // MARK: Matching

    /// The parameters the route's handler sees when this expansion matches, with the value of `n` (the first,
    /// when repeated), or nil.
    private func match(
        _ expansion: Expansion, _ url: Reading, url text: String, route: Route, scheme: String
    ) -> (parameters: [String: String], n: String?)? {
        let plus = configuration.decodesPlusSymbols
        var variables: [(String, String)] = []
        var wildcard: [String]?
        var index = 0
        for segment in expansion.segments {
            switch segment {
            case .wildcard:
                let rest = url.components[index...]
                // A `*` takes the rest of the path or of the fragment path, never the marker.
                guard !rest.contains(where: \.isMarker) else { return nil }
                wildcard = rest.map { value(of: $0, plusAsSpace: plus) }
                index = url.components.count
            case .marker:
                guard index < url.components.count, url.components[index].isMarker else { return nil }
                index += 1
            case .variable(let name):
                guard index < url.components.count, !url.components[index].isMarker else { return nil }
                variables.append((name, value(of: url.components[index], plusAsSpace: plus)))
                index += 1
            case .literal(let literal):
                guard index < url.components.count, !url.components[index].isMarker,
                    value(of: url.components[index], plusAsSpace: false) == literal
                else { return nil }
                index += 1
            }
        }
        guard index == url.components.count else { return nil }
        // Query and fragment parameters, then route variables over them, then the reserved keys.
        var values: [String: [String]] = [:]
        for (name, value) in url.queryItems(plusAsSpace: plus) {
            values[name, default: []].append(value)
        }
        var parameters: [String: String] = [:]
        for (name, list) in values { parameters[name] = Self.text(of: list.count == 1 ? .string(list[0]) : .strings(list)) }
        for (name, value) in variables { parameters[name] = Self.text(of: .string(value)) }
        parameters[RouteParameters.ReservedKey.pattern] = Self.text(of: .string(route.pattern))
        parameters[RouteParameters.ReservedKey.url] = Self.text(of: .string(text))
        parameters[RouteParameters.ReservedKey.scheme] = Self.text(of: .string(scheme))
        if let wildcard { parameters[RouteParameters.ReservedKey.wildcardComponents] = Self.text(of: .strings(wildcard)) }
        return (parameters, variables.first { $0.0 == "n" }?.1 ?? values["n"]?.first)
    }

    /// A parameter written so that a string and a list of one string differ.
    static func text(of value: RouteParameters.Value) -> String {
        switch value {
        case .string(let string): "string " + string.debugDescription
        case .strings(let strings): "strings " + strings.debugDescription
        case .object(let object): "object \(object)"
        }
    }

    // MARK: Reading URLs

    struct Component {
        /// The text as written; nil for the fragment marker.
        let text: String?
        var isMarker: Bool { text == nil }
    }

    struct Reading {
        var scheme: String?
        var components: [Component] = []
        var query: String?
        var fragmentQuery: String?

        func queryItems(plusAsSpace: Bool) -> [(String, String)] {
            [query, fragmentQuery].compactMap { $0 }.flatMap { query in
                query.split(separator: "&", omittingEmptySubsequences: false).compactMap { item -> (String, String)? in
                    guard let equals = item.firstIndex(of: "=") else { return nil }
                    return (
                        OracleRouter.decode(String(item[..<equals]), plusAsSpace: false),
                        OracleRouter.decode(String(item[item.index(after: equals)...]), plusAsSpace: plusAsSpace)
                    )
                }
            }
        }
    }

    func value(of component: Component, plusAsSpace: Bool) -> String {
        component.text.map { Self.decode($0, plusAsSpace: plusAsSpace) } ?? "#"
    }

    /// The docs' reading of a URL: scheme, then the host as a path component unless it names a machine, the
    /// path's non-empty components, the query, then the fragment as a path, parameters, both, or an anchor.
    func read(_ url: String) -> Reading {
        var reading = Reading()
        var rest = Substring(url)
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isASCII && first.isLetter,
            rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            reading.scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            reading.query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var host: String?
        if rest.hasPrefix("//") {
            let authorityAndPath = rest.dropFirst(2)
            let authority = authorityAndPath.prefix { $0 != "/" }
            rest = authorityAndPath[authority.endIndex...]
            let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last!
            let hostText: Substring
            if hostAndPort.hasPrefix("[") {
                hostText = hostAndPort.firstIndex(of: "]").map { hostAndPort[...$0] } ?? hostAndPort
            } else {
                hostText = hostAndPort.prefix { $0 != ":" }
            }
            let isMachine =
                configuration.readsURLsLikeJLRoutes
                ? hostText.contains(".") || hostText == "localhost"
                : hostText.contains(".") || hostText.hasPrefix("[") || hostText.lowercased() == "localhost"
            if !hostText.isEmpty && (configuration.alwaysTreatsHostAsPathComponent || !isMachine) {
                host = String(hostText)
                reading.components.append(Component(text: host))
            }
        }
        reading.components += rest.split(separator: "/").map { Component(text: String($0)) }
        guard let fragment else { return reading }
        func appendFragmentPath(_ path: Substring) {
            reading.components.append(Component(text: nil))
            reading.components += path.split(separator: "/").map { Component(text: String($0)) }
        }
        if let question = fragment.firstIndex(of: "?") {
            reading.fragmentQuery = String(fragment[fragment.index(after: question)...])
            if question != fragment.startIndex { appendFragmentPath(fragment[..<question]) }
        } else if fragment.isEmpty || fragment.first == "/" {
            appendFragmentPath(fragment)
        } else if fragment.contains("=") {
            reading.fragmentQuery = String(fragment)
        } else if configuration.readsURLsLikeJLRoutes && reading.query == nil, let last = reading.components.last,
            rest.isEmpty ? host != nil : rest.last != "/"
        {
            // JLRoutes appends a plain anchor to the path: it joins the last component unless a slash ends the
            // path (a port is not part of the path).
            reading.components[reading.components.count - 1] = Component(text: last.text! + "#" + fragment)
        }
        return reading
    }

    /// `%XX` decoded; a malformed escape kept as written; text whose escapes do not decode to UTF-8 kept whole
    /// as written; then, when asked, `+` as a space.
    static func decode(_ text: String, plusAsSpace: Bool) -> String {
        guard text.contains("%") || (plusAsSpace && text.contains("+")) else { return text }
        let hex = Array("0123456789abcdefABCDEF".utf8)
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "%"), index + 2 < source.count, hex.contains(source[index + 1]),
                hex.contains(source[index + 2])
            {
                bytes.append(UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)!)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { return text }
        return plusAsSpace ? decoded.split(separator: "+", omittingEmptySubsequences: false).joined(separator: " ") : decoded
    }
}

/// The typed route of the property test.
struct OracleTypedRoute: Decodable {
    var n: Int
}
