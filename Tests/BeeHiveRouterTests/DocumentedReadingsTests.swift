@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

/// Readings of docs/routing.md that the oracle found the router getting wrong, or that the docs left open, each
/// pinned with one or two routes.
@Suite struct DocumentedReadingsTests {
    private func harness(_ configuration: RouterConfiguration) -> Harness {
        let harness = Harness()
        harness.router.configuration = configuration
        return harness
    }

    // MARK: Disagreements with the docs, fixed

    /// Only a pattern's own `#` matches the fragment marker: a trailing `*` takes the rest of the path, not the
    /// fragment path, so an escaped `%23` in the path and the marker stay apart.
    @Test func aTrailingWildcardDoesNotTakeTheFragmentMarker() throws {
        let harness = Harness()
        try harness.add("/files/*")
        try harness.add("/files#/view/:id")
        let fragment = try #require(try harness.route("app://files#/view/42"))
        #expect(fragment.pattern == "/files#/view/:id")
        #expect(fragment["id"] == "42")
        let escaped = try #require(try harness.route("app://files/%23/view/42"))
        #expect(escaped.pattern == "/files/*")
        #expect(escaped.wildcardComponents == ["#", "view", "42"])

        let alone = Harness()
        try alone.add("/files/*")
        #expect(try alone.route("app://files#/view/42") == nil)
        #expect(!alone.router.canRoute("app://files#/view/42"))
        try alone.add("/files#/*")
        #expect(try alone.route("app://files#/view/42")?.wildcardComponents == ["view", "42"])
    }

    /// Read as JLRoutes reads them, optional groups as components trim every part's slashes, so a trailing
    /// slash after a group ends no expansion with an empty component.
    @Test func groupsAsComponentsTrimATrailingSlashAsJLRoutesDoes() throws {
        let harness = harness(RouterConfiguration(patternOptions: [.optionalGroupsAreComponents, .trailingSlashIsComponent]))
        try harness.add("/a(/b)/")
        #expect(harness.router.routes().first?.pattern.expandedPatterns == ["/a/b", "/a"])
        #expect(try harness.route("app:/a")?.pattern == "/a(/b)/")
        #expect(try harness.route("app:/a/b")?.pattern == "/a(/b)/")
        // Without groups the slash is still a component that nothing fills.
        try harness.add("/c/")
        #expect(try harness.route("app:/c") == nil)
    }

    /// JLRoutes appends a plain anchor to the path, which a port is not part of: `b:8080#top` reads `b#top`.
    @Test func aJLRoutesAnchorAfterAPortJoinsTheHost() throws {
        let harness = harness(RouterConfiguration(readsURLsLikeJLRoutes: true))
        try harness.add("/:object")
        #expect(try harness.route("app://b#top")?["object"] == "b#top")
        #expect(try harness.route("app://b:8080#top")?["object"] == "b#top")
        #expect(try harness.route("app://me@b:8080#top")?["object"] == "b#top")
        // A slash ends the path, and the anchor is ignored, as without the port.
        #expect(try harness.route("app://b:8080/#top")?["object"] == "b")
    }

    // MARK: Readings the docs left open, settled

    /// A host that is a path component is compared like any other, case-sensitively; only `localhost` is
    /// recognised in any case (outside JLRoutes' reading).
    @Test func hostsThatArePathComponentsCompareCaseSensitively() throws {
        let harness = Harness()
        try harness.add("/user/:id")
        #expect(try harness.route("app://user/1")?["id"] == "1")
        #expect(try harness.route("app://USER/1") == nil)
        #expect(try harness.route("app://LocalHost/user/1")?["id"] == "1")
        harness.router.configuration.readsURLsLikeJLRoutes = true
        #expect(try harness.route("app://LocalHost/user/1") == nil)
    }

    /// `+` is a literal character in literals on both sides; values (variables and wildcard components) read it
    /// as a space while `decodesPlusSymbols` is on.
    @Test func plusMatchesLiterallyAndReadsAsASpaceInValues() throws {
        let harness = Harness()
        try harness.add("/a+b/:v/*")
        let match = try #require(try harness.route("app://a+b/c+d/e+f"))
        #expect(match["v"] == "c d")
        #expect(match.wildcardComponents == ["e f"])
        #expect(try harness.route("app://a%2Bb/c/e")?["v"] == "c")
        #expect(try harness.route("app://a%20b/c/e") == nil)
        #expect(try harness.route("app://a b/c/e") == nil)
        harness.router.configuration.decodesPlusSymbols = false
        #expect(try harness.route("app://a+b/c+d/e+f")?["v"] == "c+d")
    }

    /// An escape that does not decode (`%zz`, a trailing `%`) stays as written, and a component whose escapes do
    /// not make UTF-8 is kept whole as written, pluses included; literals compare the same way.
    @Test func undecodableEscapesAreKeptAsWritten() throws {
        let harness = Harness()
        try harness.add("/%zz/:v")
        #expect(try harness.route("app://%zz/%FF")?["v"] == "%FF")
        #expect(try harness.route("app://%zz/%FF+a")?["v"] == "%FF+a")
        #expect(try harness.route("app://%zz/%E2%82%AC+a")?["v"] == "€ a")
        #expect(try harness.route("app://%zz/50%")?["v"] == "50%")
        // `%25zz` decodes to the same text, so it names the same component.
        #expect(try harness.route("app://%25zz/x")?["v"] == "x")
        #expect(try harness.route("app://zz/x") == nil)
    }

    /// Optional groups that expand to the same pattern give it once, where it first appears; every other
    /// expansion is tried as a route of its own, so a declining handler may be called once per expansion.
    @Test func identicalExpansionsAreKeptOnceAndOthersEachTried() throws {
        let router = Router()
        let calls = Mutex<[[String]?]>([])
        try router.addRoute("/a(/b)(/b)") { parameters in
            calls.withLock { $0.append(parameters.wildcardComponents) }
            return false
        }
        #expect(router.routes().first?.pattern.expandedPatterns == ["/a/b/b", "/a/b", "/a"])
        #expect(try !router.route("app://a/b").isHandled)
        #expect(calls.withLock { $0.count } == 1)

        try router.addRoute("/w(/x)/*") { parameters in
            calls.withLock { $0.append(parameters.wildcardComponents) }
            return false
        }
        calls.withLock { $0 = [] }
        #expect(try !router.route("app://w/x/y").isHandled)
        #expect(calls.withLock { $0 } == [["y"], ["x", "y"]])
    }

    /// "Longest first" counts the UTF-16 code units of the expansion as listed, not its components:
    /// `/x/yyyyyyyy/*` (13) goes before `/x/:p/:q/*` (10) though it has fewer components.
    @Test func longestFirstCountsCharactersNotComponents() throws {
        let harness = Harness()
        try harness.add("/x(/yyyyyyyy)(/:p/:q)/*")
        #expect(
            harness.router.routes().first?.pattern.expandedPatterns
                == ["/x/yyyyyyyy/:p/:q/*", "/x/yyyyyyyy/*", "/x/:p/:q/*", "/x/*"])
        let match = try #require(try harness.route("app://x/yyyyyyyy/2"))
        #expect(match.wildcardComponents == ["2"])
        #expect(match["p"] == nil)
        #expect(try RoutePattern("/é(/ab)(/ééé)").expandedPatterns == ["/é/ab/ééé", "/é/ééé", "/é/ab", "/é"])
    }

    /// `#` with nothing after it, or `#/`, is an empty fragment path: a pattern ending in `#` matches it, and a
    /// pattern without `#` does not.
    @Test func anEmptyFragmentIsAnEmptyFragmentPath() throws {
        let harness = Harness()
        try harness.add("/a")
        try harness.add("/b#")
        #expect(try harness.route("app://a#") == nil)
        #expect(try harness.route("app://b#")?.pattern == "/b#")
        #expect(try harness.route("app://b#/")?.pattern == "/b#")
        #expect(try harness.route("app://b") == nil)
    }
}
