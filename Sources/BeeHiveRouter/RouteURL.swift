/// A URL split the way JLRoutes reads it, by one pass over its UTF-8 bytes and without Foundation.
///
/// Components are ranges into the original text, so parsing allocates nothing but the component list. The
/// path is the host (when it is not a domain name or `localhost`, or when the host is always a path
/// component), then the path, then, when the fragment is a path (`#/view/42`), a fragment marker followed by
/// the fragment's components. Empty components are skipped, so `a//b/` is `a`, `b`.
struct RouteURL {
    struct Component {
        var range: Range<String.Index>
        /// The position of `#`: a fragment path starts after it. Only a pattern's own `#` matches it.
        var isFragmentMarker: Bool
    }

    let text: String
    /// The scheme as written, or nil for a relative URL such as `/user/42`.
    let scheme: Substring?
    private(set) var components: [Component] = []
    /// The query after `?`, then the query inside the fragment (`#/view?x=1` or `#x=1&y=2`).
    private(set) var queries: [Range<String.Index>] = []

    init(_ text: String, treatsHostAsPathComponent: Bool) {
        self.text = text
        let utf8 = text.utf8
        let schemeEnd = Self.schemeEnd(in: text)
        scheme = schemeEnd.map { text[text.startIndex..<$0] }
        var start = schemeEnd.map { utf8.index(after: $0) } ?? utf8.startIndex

        var end = utf8.endIndex
        if let hash = utf8[start...].firstIndex(of: UInt8(ascii: "#")) {
            end = hash
        }
        let fragment: Range<String.Index>? = end == utf8.endIndex ? nil : utf8.index(after: end)..<utf8.endIndex
        if let question = utf8[start..<end].firstIndex(of: UInt8(ascii: "?")) {
            queries.append(utf8.index(after: question)..<end)
            end = question
        }

        components.reserveCapacity(8)
        if utf8[start..<end].starts(with: "//".utf8) {
            let authorityStart = utf8.index(start, offsetBy: 2)
            let authorityEnd = utf8[authorityStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            if let host = Self.host(in: text, authorityStart..<authorityEnd), !host.isEmpty,
                treatsHostAsPathComponent || !Self.isNetworkHost(text[host])
            {
                components.append(Component(range: host, isFragmentMarker: false))
            }
            start = authorityEnd
        }
        appendComponents(of: start..<end)

        guard let fragment else { return }
        if let question = utf8[fragment].firstIndex(of: UInt8(ascii: "?")) {
            queries.append(utf8.index(after: question)..<fragment.upperBound)
            if question != fragment.lowerBound {
                appendFragmentPath(fragment.lowerBound..<question)
            }
        } else if utf8[fragment].first != UInt8(ascii: "/") && utf8[fragment].contains(UInt8(ascii: "=")) {
            // `#a=1&b=2`: the fragment carries parameters only.
            queries.append(fragment)
        } else {
            appendFragmentPath(fragment)
        }
    }

    /// The end of the scheme (the index of its `:`), found without parsing the rest of the URL.
    static func schemeEnd(in text: String) -> String.Index? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        guard index != utf8.endIndex, isLetter(utf8[index]) else { return nil }
        index = utf8.index(after: index)
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            else { return nil }
            index = utf8.index(after: index)
        }
        return nil
    }

    /// The text of a component as written (still percent-encoded); `#` for the fragment marker.
    func rawText(of component: Component) -> Substring {
        component.isFragmentMarker ? "#" : text[component.range]
    }

    /// A component's value: percent-decoded, with `+` as a space when asked.
    func value(of component: Component, plusAsSpace: Bool) -> String {
        component.isFragmentMarker ? "#" : PercentDecoding.decode(text[component.range], plusAsSpace: plusAsSpace)
    }

    /// Every `name=value` pair of the query and of the fragment's query, in order, decoded. Items without `=`
    /// and items with an empty name carry nothing and are skipped, as in JLRoutes.
    func queryItems(plusAsSpace: Bool) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        for query in queries {
            for item in text[query].utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                guard let equals = item.firstIndex(of: UInt8(ascii: "=")), equals != item.startIndex else { continue }
                let name = PercentDecoding.decode(text[item.startIndex..<equals], plusAsSpace: false)
                let value = PercentDecoding.decode(text[text.utf8.index(after: equals)..<item.endIndex], plusAsSpace: plusAsSpace)
                items.append((name, value))
            }
        }
        return items
    }

    private mutating func appendFragmentPath(_ range: Range<String.Index>) {
        components.append(Component(range: range.lowerBound..<range.lowerBound, isFragmentMarker: true))
        appendComponents(of: range)
    }

    private mutating func appendComponents(of range: Range<String.Index>) {
        let utf8 = text.utf8
        var componentStart = range.lowerBound
        var index = range.lowerBound
        while index != range.upperBound {
            if utf8[index] == UInt8(ascii: "/") {
                if componentStart != index {
                    components.append(Component(range: componentStart..<index, isFragmentMarker: false))
                }
                componentStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if componentStart != range.upperBound {
            components.append(Component(range: componentStart..<range.upperBound, isFragmentMarker: false))
        }
    }

    /// The host inside an authority: without `user@` and without `:port`.
    private static func host(in text: String, _ authority: Range<String.Index>) -> Range<String.Index>? {
        let utf8 = text.utf8
        var start = authority.lowerBound
        if let at = utf8[authority].lastIndex(of: UInt8(ascii: "@")) { start = utf8.index(after: at) }
        var end = authority.upperBound
        if utf8[start..<end].first == UInt8(ascii: "[") {
            if let close = utf8[start..<end].firstIndex(of: UInt8(ascii: "]")) { end = utf8.index(after: close) }
        } else if let colon = utf8[start..<end].firstIndex(of: UInt8(ascii: ":")) {
            end = colon
        }
        return start..<end
    }

    /// Whether a host names a machine (a domain name, an IP address or `localhost`) rather than a path
    /// component such as the `user` of `myapp://user/42`.
    private static func isNetworkHost(_ host: Substring) -> Bool {
        host.utf8.contains(UInt8(ascii: ".")) || host.utf8.first == UInt8(ascii: "[")
            || host.utf8.elementsEqual("localhost".utf8, by: { lowercased($0) == $1 })
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
