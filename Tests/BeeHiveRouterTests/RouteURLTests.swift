import Testing

@_spi(BeeHiveInternals) @testable import BeeHiveRouter

@Suite struct RouteURLTests {
    private func components(_ text: String, hostIsPath: Bool = false) -> [String] {
        let url = RouteURL(text, treatsHostAsPathComponent: hostIsPath)
        return url.components.map { RouteURL.value(of: $0, in: text, plusAsSpace: true) }
    }

    private func query(_ text: String) -> [String] {
        var items: [String] = []
        RouteURL(text, treatsHostAsPathComponent: false).forEachQueryItem(in: text, plusAsSpace: true) { items.append("\($0)=\($1)") }
        return items
    }

    @Test func schemesAndHosts() {
        #expect(RouteURL("MyApp://x", treatsHostAsPathComponent: false).scheme(in: "MyApp://x") == "MyApp")
        #expect(RouteURL.lowercasedScheme(of: "MyApp://x") == "myapp")
        #expect(RouteURL("/x:y", treatsHostAsPathComponent: false).scheme(in: "/x:y") == nil)
        #expect(RouteURL.lowercasedScheme(of: "1ab://x") == nil)
        #expect(components("app://user/view/1") == ["user", "view", "1"])
        #expect(components("https://example.com/a") == ["a"])
        #expect(components("https://example.com/a", hostIsPath: true) == ["example.com", "a"])
        #expect(components("app://me@user:80/a") == ["user", "a"])
        #expect(components("app://") == [])
        #expect(components("app:/") == [])
        #expect(components("") == [])
    }

    /// Hosts read in one pass agree with a plain reading: the host follows the last `@`, ends at the first `:`
    /// (or after the first `]` of an IP literal), and is a path component unless it names a machine.
    @Test func randomAuthoritiesAgreeWithAPlainReading() {
        let pieces = ["a", "B", "9", ".", ":", "@", "[", "]", "%41", "+", "localhost", "LOCALHOST", "::1"]
        var generator = SplitMix.seeded()
        for _ in 0..<4_000 {
            let authority = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let text = "app://" + authority + "/p"
            let afterAt = authority.split(separator: "@", omittingEmptySubsequences: false).last!
            let host =
                afterAt.first == "["
                ? afterAt.firstIndex(of: "]").map { afterAt[...$0] } ?? afterAt
                : afterAt.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first!
            for (hostIsPath, likeJLRoutes) in [(false, false), (false, true), (true, false), (true, true)] {
                let names =
                    likeJLRoutes
                    ? host.contains(".") || host == "localhost"
                    : host.contains(".") || host.first == "[" || host.lowercased() == "localhost"
                let expected = (!host.isEmpty && (hostIsPath || !names) ? ["\(host) \(host.contains("%")) \(host.contains("+"))"] : []) + ["p false false"]
                let url = RouteURL(text, treatsHostAsPathComponent: hostIsPath, readsLikeJLRoutes: likeJLRoutes)
                let bytes = Array(text.utf8)
                let actual = url.components.map { component in
                    "\(String(decoding: bytes[component.start..<component.end], as: UTF8.self)) \(component.hasEscape) \(component.hasPlus)"
                }
                #expect(actual == expected, "\(text) host-is-path \(hostIsPath) like-JLRoutes \(likeJLRoutes); \(generator.replay)")
            }
        }
    }

    @Test func fragments() {
        #expect(components("app://user#/view/1?x=2") == ["user", "#", "view", "1"])
        #expect(components("app://user#") == ["user", "#"])
        #expect(components("app://user#a=1") == ["user"])
        #expect(components("app://user#?a=1") == ["user"])
        #expect(components("app://user#top") == ["user"])
        #expect(query("app://user?a=1#/v?b=2&a=3") == ["a=1", "b=2", "a=3"])
        #expect(query("app://user#a=&b=1") == ["a=", "b=1"])
    }

    @Test func queryItems() {
        #expect(query("app://x?a=1&&b&=c&d=%41+b&e=%2B") == ["a=1", "=c", "d=A b", "e= "])
        #expect(query("app://x?%61=1") == ["a=1"])
        #expect(query("app://x") == [])
    }

    @Test func decoding() {
        #expect(components("app://x/a%20b/c+d/%zz/%E2%82%AC/%FF") == ["x", "a b", "c d", "%zz", "€", "%FF"])
    }

    /// The path is split eight bytes at a time; a byte at a time is the reference. Random paths over the bytes
    /// that matter, with delimiters at every offset of a word and across words, must give the same components,
    /// with the same escape and plus flags, and the same query.
    @Test func pathSplittingMatchesAByteAtATimeReading() {
        let alphabet = Array("ab9/?#%+=&é".utf8)
        var generator = SplitMix.seeded()
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let path = "/z" + String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            let bytes = Array(path.utf8)
            let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            var expected: [String] = []
            var start = 0
            for index in 0...end where index == end || bytes[index] == UInt8(ascii: "/") {
                if index > start {
                    let part = bytes[start..<index]
                    expected.append("\(String(decoding: part, as: UTF8.self)) \(part.contains(UInt8(ascii: "%"))) \(part.contains(UInt8(ascii: "+")))")
                }
                start = index + 1
            }
            let url = RouteURL(path, treatsHostAsPathComponent: false)
            let actual = url.components.prefix { !$0.isFragmentMarker }.map { component in
                let text = String(decoding: bytes[component.start..<component.end], as: UTF8.self)
                return "\(text) \(component.hasEscape) \(component.hasPlus)"
            }
            #expect(actual == expected, "\(path); \(generator.replay)")
            if end < bytes.count, bytes[end] == UInt8(ascii: "?") {
                let queryEnd = bytes[end...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
                #expect(url.query == (end + 1)..<queryEnd, "\(path); \(generator.replay)")
            }
        }
    }

    /// Routing reads a URL's components into a ``RouteURL/ComponentBuffer`` rather than a ``RouteURL``: both must
    /// read the same components from any text, past the eight kept inline and in either reading, and a buffer
    /// read again holds only the second URL's.
    @Test func aComponentBufferReadsWhatARouteURLReads() {
        let pieces = ["a", "Bc", "/", "//", "?", "#", "#/", "%41", "+", "=", "&", "@", ":", "[", "]", "localhost", "x.y", "app:", "app://"]
        var generator = SplitMix.seeded()
        func described(_ component: RouteURL.Component) -> String {
            "\(component.start)-\(component.end) \(component.isFragmentMarker) \(component.hasEscape) \(component.hasPlus)"
        }
        for round in 0..<3_000 {
            let count = round < 2_000 ? Int.random(in: 0...12, using: &generator) : Int.random(in: 20...80, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for (hostIsPath, likeJLRoutes) in [(false, false), (false, true), (true, false), (true, true)] {
                let url = RouteURL(text, treatsHostAsPathComponent: hostIsPath, readsLikeJLRoutes: likeJLRoutes)
                var buffer = RouteURL.ComponentBuffer(
                    reading: RouterConfiguration(alwaysTreatsHostAsPathComponent: hostIsPath, readsURLsLikeJLRoutes: likeJLRoutes))
                buffer.read("app://first/" + String(repeating: "s/", count: round % 20))
                buffer.read(text)
                let read = buffer.withComponents { $0.map(described) }
                #expect(read == url.components.map(described), "\(text.debugDescription) host-is-path \(hostIsPath) like-JLRoutes \(likeJLRoutes); \(generator.replay)")
            }
        }
    }
}
