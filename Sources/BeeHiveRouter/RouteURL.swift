@_spi(BeeHiveInternals) import BeeHiveRegistry

/// A URL split the way JLRoutes reads it, by one pass over its UTF-8 bytes and without Foundation.
///
/// Components are byte ranges into the text, the first eight stored inline, so parsing a typical URL allocates
/// nothing. The text stays with the caller, who passes it back to read values: the parsed URL holds no reference,
/// so the router can move the text on into the match without a reference count going up and down. The path
/// is the host (when it is not a domain name, an IP literal or `localhost`, or when the host is always a path
/// component), then the path, then, when the fragment is a path (`#/view/42`), a fragment marker followed by
/// the fragment's components. Empty components are skipped, so `a//b/` is `a`, `b`.
///
/// Not copyable: it is large (the inline components), so the router borrows the one it read all the way down
/// instead of letting copies slip in.
struct RouteURL: ~Copyable {
    /// Three words with no tail padding (its size is its stride), so that eight of them stored inline can be read
    /// as one buffer.
    struct Component {
        let start: Int
        let end: Int
        /// Three flag bits, then, for an anchor glued across a port, where the skipped bytes start (relative to
        /// `start`, 30 bits) and how many they are (30 bits).
        private let flags: Int

        init(start: Int, end: Int, isFragmentMarker: Bool, hasEscape: Bool, hasPlus: Bool) {
            self.start = start
            self.end = end
            flags = (isFragmentMarker ? 1 : 0) | (hasEscape ? 2 : 0) | (hasPlus ? 4 : 0)
        }

        /// A component whose bytes `gap` (inside `start..<end`) are not part of it: JLRoutes' reading of
        /// `app://b:8080#top` glues the anchor to the host, `b#top`, across the port. Nil when the gap does not
        /// fit the flags, which no URL shorter than a gigabyte reaches.
        init?(start: Int, end: Int, gap: Range<Int>, hasEscape: Bool, hasPlus: Bool) {
            let offset = gap.lowerBound - start
            guard offset < 1 << 30, gap.count < 1 << 30, !gap.isEmpty else { return nil }
            self.start = start
            self.end = end
            flags = (hasEscape ? 2 : 0) | (hasPlus ? 4 : 0) | offset << 3 | gap.count << 33
        }

        /// The position of `#`: a fragment path starts after it. Only a pattern's own `#` matches it.
        var isFragmentMarker: Bool { flags & 1 != 0 }
        /// Whether the bytes hold `%`, so that comparing or reading them needs decoding.
        var hasEscape: Bool { flags & 2 != 0 }
        /// Whether the bytes hold `+`, which values may read as a space.
        var hasPlus: Bool { flags & 4 != 0 }
        /// The bytes inside `start..<end` that are not part of the component, or nil.
        var gap: Range<Int>? {
            let count = flags >> 33
            guard count != 0 else { return nil }
            let lower = start + ((flags >> 3) & ((1 << 30) - 1))
            return lower..<(lower + count)
        }
        /// Whether the component's text is not its bytes as they stand: they hold escapes or a gap.
        var needsDecoding: Bool { hasEscape || flags >> 33 != 0 }
    }

    /// The byte offset of the scheme's `:`, or nil for a relative URL such as `/user/42`.
    private(set) var schemeEnd: Int?
    private(set) var components = Components()
    /// The query after `?`.
    private(set) var query: Range<Int>?
    /// The query inside the fragment (`#/view?x=1` or `#x=1&y=2`).
    private(set) var fragmentQuery: Range<Int>?
    /// How the text was read, so that reading it again (``MatchedURL``) gives these components whatever the
    /// router's configuration has become since.
    let treatsHostAsPathComponent: Bool
    let readsLikeJLRoutes: Bool

    /// Reads `text`; every later read of a value takes the same text.
    @inline(__always)
    init(_ text: borrowing String, treatsHostAsPathComponent: Bool, readsLikeJLRoutes: Bool = false) {
        self.treatsHostAsPathComponent = treatsHostAsPathComponent
        self.readsLikeJLRoutes = readsLikeJLRoutes
        // Parsed straight into the stored properties: building the inline components elsewhere and moving them in
        // copied about 200 bytes per URL.
        let parts = Self.withBytes(of: text) { bytes in
            Self.read(bytes, treatsHostAsPathComponent: treatsHostAsPathComponent, readsLikeJLRoutes: readsLikeJLRoutes, into: &components)
        }
        schemeEnd = parts.schemeEnd
        query = parts.query
        fragmentQuery = parts.fragmentQuery
    }

    /// The scheme as written in `text`, the text this URL was read from.
    func scheme(in text: String) -> String? {
        schemeEnd.map { end in Self.withBytes(of: text) { String(decoding: UnsafeBufferPointer(rebasing: $0[..<end]), as: UTF8.self) } }
    }

    /// The scheme lowercased, read without parsing the rest of the URL.
    static func lowercasedScheme(of text: String) -> String? {
        withBytes(of: text) { bytes in
            guard let end = schemeEnd(in: bytes) else { return nil }
            let scheme = UnsafeBufferPointer(rebasing: bytes[..<end])
            guard scheme.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                return String(decoding: scheme, as: UTF8.self)
            }
            return String(decoding: scheme.map(lowercased), as: UTF8.self)
        }
    }

    /// A component's value in `text`, the text this URL was read from: percent-decoded, with `+` as a space when
    /// asked; `#` for the fragment marker.
    static func value(of component: Component, in text: String, plusAsSpace: Bool) -> String {
        if component.isFragmentMarker { return "#" }
        return Self.withBytes(of: text) { value(of: component, in: $0, plusAsSpace: plusAsSpace) }
    }

    /// A component's value in the bytes it was read from.
    static func value(of component: Component, in bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        if let gap = component.gap {
            let joined = Array(bytes[component.start..<gap.lowerBound]) + Array(bytes[gap.upperBound..<component.end])
            return joined.withUnsafeBufferPointer { PercentDecoding.decode($0, plusAsSpace: plusAsSpace) }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[component.start..<component.end])
        guard component.hasEscape || (plusAsSpace && component.hasPlus) else {
            return String(decoding: slice, as: UTF8.self)
        }
        return PercentDecoding.decode(slice, plusAsSpace: plusAsSpace)
    }

    /// Every `name=value` pair of the query and of the fragment's query in `text`, in order, decoded. Items without
    /// `=` carry nothing and are skipped; an empty name (`?=v`) is kept, as in JLRoutes.
    func forEachQueryItem(in text: String, plusAsSpace: Bool, _ body: (_ name: String, _ value: String) -> Void) {
        Self.withBytes(of: text) { bytes in
            func items(in range: Range<Int>) {
                var itemStart = range.lowerBound
                for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == UInt8(ascii: "&") {
                    defer { itemStart = index + 1 }
                    guard let equals = bytes[itemStart..<index].firstIndex(of: UInt8(ascii: "=")) else { continue }
                    let name = PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[itemStart..<equals]), plusAsSpace: false)
                    let value = PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<index]), plusAsSpace: plusAsSpace)
                    body(name, value)
                }
            }
            if let query { items(in: query) }
            if let fragmentQuery { items(in: fragmentQuery) }
        }
    }

    // MARK: Parsing

    /// The text's UTF-8 bytes, in place.
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        // Only bridged strings lack contiguous storage.
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(body)!
    }

    /// What a reading finds besides the components.
    struct Parts {
        var schemeEnd: Int?
        var query: Range<Int>?
        var fragmentQuery: Range<Int>?
        /// The host when it is a path component, and where its authority ends (after any port).
        var hostComponent: Range<Int>?
        var authorityEnd = 0
    }

    /// Splits the URL in one forward pass: scheme, authority, path components, then query and fragment. The
    /// components go to `components`: a URL's own, or the buffer of a routing call, which reads nothing else.
    @inline(__always)
    static func read<Sink: RouteURLComponentSink & ~Copyable>(
        _ bytes: UnsafeBufferPointer<UInt8>, treatsHostAsPathComponent: Bool, readsLikeJLRoutes: Bool, into components: inout Sink
    ) -> Parts {
        var parts = Parts()
        readPath(bytes, treatsHostAsPathComponent: treatsHostAsPathComponent, readsLikeJLRoutes: readsLikeJLRoutes, into: &components, parts: &parts)
        return parts
    }

    private static func readPath<Sink: RouteURLComponentSink & ~Copyable>(
        _ bytes: UnsafeBufferPointer<UInt8>, treatsHostAsPathComponent: Bool, readsLikeJLRoutes: Bool, into components: inout Sink,
        parts: inout Parts
    ) {
        let count = bytes.count
        let schemeEnd = Self.schemeEnd(in: bytes)
        parts.schemeEnd = schemeEnd
        var index = schemeEnd.map { $0 + 1 } ?? 0

        if count - index >= 2 && bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/") {
            var authorityEnd = index + 2
            var hostStart = authorityEnd
            while authorityEnd < count {
                let byte = bytes[authorityEnd]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "@") { hostStart = authorityEnd + 1 }
                authorityEnd += 1
            }
            // The host, without `:port`, read once for its end and for what it holds.
            let bracketed = hostStart < authorityEnd && bytes[hostStart] == UInt8(ascii: "[")
            var hostEnd = hostStart
            var hasDot = false
            var hasEscape = false
            var hasPlus = false
            while hostEnd < authorityEnd {
                let byte = bytes[hostEnd]
                if bracketed ? byte == UInt8(ascii: "]") : byte == UInt8(ascii: ":") {
                    if bracketed { hostEnd += 1 }
                    break
                }
                hasDot = hasDot || byte == UInt8(ascii: ".")
                hasEscape = hasEscape || byte == UInt8(ascii: "%")
                hasPlus = hasPlus || byte == UInt8(ascii: "+")
                hostEnd += 1
            }
            let host = hostStart..<hostEnd
            // Whether the host names a machine (a domain name, an IP literal or `localhost`) rather than a path
            // component such as the `user` of `myapp://user/42`. JLRoutes' test: a dot, or exactly `localhost`.
            let isNetworkHost =
                readsLikeJLRoutes
                ? hasDot || Self.isLocalhost(bytes, host, ignoringCase: false)
                : hasDot || bracketed || Self.isLocalhost(bytes, host, ignoringCase: true)
            if !host.isEmpty && (treatsHostAsPathComponent || !isNetworkHost) {
                components.append(Component(
                    start: host.lowerBound, end: host.upperBound, isFragmentMarker: false, hasEscape: hasEscape, hasPlus: hasPlus))
                parts.hostComponent = host
            }
            parts.authorityEnd = authorityEnd
            index = authorityEnd
        }

        var componentStart = index
        var hasEscape = false
        var hasPlus = false
        // Where the path ends: at its `?` or `#`, or at the end of the URL.
        var pathEnd = count
        // Acts on the delimiter at `position`; false at the `?` or `#` that ends the path.
        @inline(__always)
        func visit(_ position: Int) -> Bool {
            switch bytes[position] {
            case UInt8(ascii: "/"):
                if componentStart != position {
                    components.append(Component(
                        start: componentStart, end: position, isFragmentMarker: false, hasEscape: hasEscape, hasPlus: hasPlus))
                }
                componentStart = position + 1
                hasEscape = false
                hasPlus = false
            case UInt8(ascii: "%"): hasEscape = true
            case UInt8(ascii: "+"): hasPlus = true
            default: return false
            }
            return true
        }
        // Eight bytes at a time, visiting only the delimiters a word holds: a loop that looked at every byte
        // branched on letters against digits, which no predictor follows. The last bytes go one at a time.
        path: do {
            while index + 8 <= count {
                var delimiters = Self.pathDelimiterBytes(in: bytes, at: index)
                while delimiters != 0 {
                    let position = index + delimiters.trailingZeroBitCount / 8
                    delimiters &= delimiters - 1
                    guard visit(position) else {
                        pathEnd = position
                        break path
                    }
                }
                index += 8
            }
            while index < count {
                let byte = bytes[index]
                if byte <= UInt8(ascii: "?") && Self.pathDelimiters & (1 << UInt64(byte)) != 0 && !visit(index) {
                    pathEnd = index
                    break path
                }
                index += 1
            }
        }
        if componentStart != pathEnd {
            components.append(
                Component(start: componentStart, end: pathEnd, isFragmentMarker: false, hasEscape: hasEscape, hasPlus: hasPlus))
        }
        index = pathEnd
        if index == count { return }

        if bytes[index] == UInt8(ascii: "?") {
            let queryStart = index + 1
            index = queryStart
            while index < count && bytes[index] != UInt8(ascii: "#") { index += 1 }
            parts.query = queryStart..<index
            if index == count { return }
        }
        readFragment((index + 1)..<count, in: bytes, readsLikeJLRoutes: readsLikeJLRoutes, into: &components, parts: &parts)
    }

    /// The part after `#`: a path (`#/view/42`), parameters (`#a=1&b=2`), both (`#/view?x=1`), or an anchor.
    private static func readFragment<Sink: RouteURLComponentSink & ~Copyable>(
        _ fragment: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, readsLikeJLRoutes: Bool, into components: inout Sink,
        parts: inout Parts
    ) {
        if let question = bytes[fragment].firstIndex(of: UInt8(ascii: "?")) {
            parts.fragmentQuery = (question + 1)..<fragment.upperBound
            if question != fragment.lowerBound {
                appendFragmentPath(fragment.lowerBound..<question, in: bytes, to: &components)
            }
        } else if bytes[fragment].first != UInt8(ascii: "/") && bytes[fragment].contains(UInt8(ascii: "=")) {
            // `#a=1&b=2`: the fragment carries parameters only.
            parts.fragmentQuery = fragment
        } else if let first = bytes[fragment].first, first != UInt8(ascii: "/") {
            // `#top`: an anchor, not a path. JLRoutes glues it to the last component (`x#top`) when nothing
            // separates them.
            guard readsLikeJLRoutes, parts.query == nil, let last = components.lastComponent, !last.isFragmentMarker else { return }
            let hasEscape = last.hasEscape || bytes[fragment].contains(UInt8(ascii: "%"))
            let hasPlus = last.hasPlus || bytes[fragment].contains(UInt8(ascii: "+"))
            let marker = fragment.lowerBound - 1
            if last.end == marker {
                components.replaceLast(with: Component(
                    start: last.start, end: fragment.upperBound, isFragmentMarker: false, hasEscape: hasEscape, hasPlus: hasPlus))
            } else if parts.hostComponent == last.start..<last.end, parts.authorityEnd == marker,
                let glued = Component(
                    start: last.start, end: fragment.upperBound, gap: last.end..<marker, hasEscape: hasEscape, hasPlus: hasPlus)
            {
                // `app://b:8080#top`: JLRoutes appends the anchor to the path, which the port is not part of.
                components.replaceLast(with: glued)
            }
        } else {
            appendFragmentPath(fragment, in: bytes, to: &components)
        }
    }

    /// The bytes below 64 that end a path component or mark it: `#`, `%`, `+`, `/` and `?`, one bit each.
    private static var pathDelimiters: UInt64 {
        1 << UInt64(UInt8(ascii: "#")) | 1 << UInt64(UInt8(ascii: "%")) | 1 << UInt64(UInt8(ascii: "+"))
            | 1 << UInt64(UInt8(ascii: "/")) | 1 << UInt64(UInt8(ascii: "?"))
    }

    /// The high bit of each of the eight bytes at `index` that is `/`, `?`, `#`, `%` or `+`, and no other bit.
    @inline(__always)
    private static func pathDelimiterBytes(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
        return ByteMask.equal(word, UInt8(ascii: "/")) | ByteMask.equal(word, UInt8(ascii: "?"))
            | ByteMask.equal(word, UInt8(ascii: "#")) | ByteMask.equal(word, UInt8(ascii: "%"))
            | ByteMask.equal(word, UInt8(ascii: "+"))
    }

    private static func schemeEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for index in 1..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isSchemeByte(byte) else { return nil }
        }
        return nil
    }

    /// A letter, a digit, `+`, `-` or `.`: one bit each in two words, so that a byte costs a shift, not five
    /// comparisons.
    @inline(__always)
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        let below64: UInt64 = 1 << 43 | 1 << 45 | 1 << 46 | 0x3FF << 48
        let from64: UInt64 = 0x3FF_FFFF << 1 | 0x3FF_FFFF << 33
        guard byte < 128 else { return false }
        return ((byte < 64 ? below64 : from64) >> UInt64(byte & 63)) & 1 != 0
    }

    private static func appendFragmentPath<Sink: RouteURLComponentSink & ~Copyable>(
        _ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, to components: inout Sink
    ) {
        components.append(Component(start: range.lowerBound, end: range.lowerBound, isFragmentMarker: true, hasEscape: false, hasPlus: false))
        var componentStart = range.lowerBound
        var hasEscape = false
        var hasPlus = false
        for index in range.lowerBound...range.upperBound {
            let atEnd = index == range.upperBound
            let byte = atEnd ? 0 : bytes[index]
            if atEnd || byte == UInt8(ascii: "/") {
                if componentStart != index {
                    components.append(
                        Component(start: componentStart, end: index, isFragmentMarker: false, hasEscape: hasEscape, hasPlus: hasPlus))
                }
                componentStart = index + 1
                hasEscape = false
                hasPlus = false
            } else if byte == UInt8(ascii: "%") {
                hasEscape = true
            } else if byte == UInt8(ascii: "+") {
                hasPlus = true
            }
        }
    }

    /// Compared byte by byte: a lazily lowercased sequence compared with `elementsEqual` went through generic code.
    private static func isLocalhost(_ bytes: UnsafeBufferPointer<UInt8>, _ host: Range<Int>, ignoringCase: Bool) -> Bool {
        let localhost: StaticString = "localhost"
        guard host.count == localhost.utf8CodeUnitCount else { return false }
        for offset in 0..<host.count {
            let byte = bytes[host.lowerBound + offset]
            if (ignoringCase ? lowercased(byte) : byte) != localhost.utf8Start[offset] { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
