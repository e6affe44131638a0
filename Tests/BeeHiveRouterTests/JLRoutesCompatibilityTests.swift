@_spi(BeeHiveInternals) import BeeHiveRouter
import Testing

/// The cases where a reading of JLRoutes' source found this router different, each either matching JLRoutes
/// or showing the deliberate difference and the switch that restores JLRoutes' behaviour (docs/routing.md).
@Suite struct JLRoutesCompatibilityTests {
    /// Every pattern that JLRoutes' own test suite (JLRoutesTests.m) registers.
    static let jlroutesTestPatterns = [
        "/", "/(rest/)(app/):object/:id", "/(rest/):object/(app/):id", "/:", "/:foo/:baz", "/:foo/bar/:baz",
        "/:foo/things/:baz", "/:object#/:action/:primaryKey", "/:object/:action/:primaryKey", "/foo", "/foo/:routeParam",
        "/global1", "/global2", "/global3", "/interleaving/:param1#/foo/:param2", "/interleaving/:param1/foo/:param2",
        "/multiple1", "/multiple2", "/path/:pathid", "/path/:thing(/new)(/anotherpath/:anotherthing)",
        "/required#/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)", "/return/:value",
        "/route#/:param/*", "/route/:param/*", "/scheme1", "/scheme2", "/sign_in", "/test", "/test/foo",
        "/test/priority/:level", "/test/priority/high", "/test1", "/test2", "/user#/view/:userID", "/user/view/:userID",
        "/web", "/web/:URLString", "/www.mydomain2.com/path/:pathid", "/www.mydomain2.com/sign_in", "/xyz/wildcard#/*",
        "/xyz/wildcard/*", "list/:variable/detail/:variable2/*", "/subscripting", "/success", "/foo/bar",
    ]

    @Test(arguments: jlroutesTestPatterns)
    func everyPatternOfJLRoutesTestSuiteIsAccepted(pattern: String) throws {
        for options in [RoutePattern.Options(), .optionalGroupsAreComponents, [.optionalGroupsAreComponents, .trailingSlashIsComponent]] {
            let router = Router(configuration: RouterConfiguration(patternOptions: options))
            try router.addRoute(pattern)
            #expect(router.routes().map(\.pattern.text) == [pattern])
        }
    }

    @Test func jlroutesTestPatternsKeepTheirMeaning() throws {
        let harness = Harness()
        try harness.add("/path/:thing(/new)(/anotherpath/:anotherthing)")
        #expect(try harness.route("app://path/x/new/anotherpath/y")?["anotherthing"] == "y")
        #expect(try harness.route("app://path/x/anotherpath/y")?["thing"] == "x")
        try harness.add("/(rest/):object/(app/):id")
        #expect(try harness.route("app://rest/o/app/1")?["object"] == "o")
        #expect(try harness.route("app://o/1")?["id"] == "1")
        try harness.add("list/:variable/detail/:variable2/*")
        #expect(try harness.route("app://list/a/detail/b/c/d")?.wildcardComponents == ["c", "d"])
        try harness.add("/route#/:param/*")
        #expect(try harness.route("app://route#/p/q")?.wildcardComponents == ["q"])
        try harness.add("/www.mydomain2.com/sign_in")
        #expect(try harness.route("http://www.mydomain2.com/sign_in") == nil)
        #expect(try harness.route("app://www.mydomain2.com/sign_in")?.pattern == nil)
        let hostAsPath = Harness()
        hostAsPath.router.configuration.alwaysTreatsHostAsPathComponent = true
        try hostAsPath.add("/www.mydomain2.com/sign_in")
        #expect(try hostAsPath.route("http://www.mydomain2.com/sign_in")?.pattern == "/www.mydomain2.com/sign_in")
    }

    @Test func anOptionalGroupInsideAComponentExtendsItUnlessJLRoutesReadingIsOn() throws {
        let harness = Harness()
        try harness.add("/user(s)/:id")
        #expect(try harness.route("app://users/1")?["id"] == "1")
        #expect(try harness.route("app://user/1")?["id"] == "1")
        #expect(try harness.route("app://user/s/1") == nil)

        let jlroutes = Harness()
        jlroutes.router.configuration.patternOptions = .optionalGroupsAreComponents
        try jlroutes.add("/user(s)/:id")
        #expect(try jlroutes.route("app://user/s/1")?["id"] == "1")
        #expect(try jlroutes.route("app://users/1") == nil)
    }

    @Test func aPlainAnchorIsIgnoredOrGluedToTheLastComponentAsInJLRoutes() throws {
        let harness = Harness()
        try harness.add("/v/:x")
        #expect(try harness.route("app://v/x#top")?["x"] == "x")

        let jlroutes = Harness()
        jlroutes.router.configuration.readsURLsLikeJLRoutes = true
        try jlroutes.add("/v/:x")
        #expect(try jlroutes.route("app://v/x#top")?["x"] == "x#top")
        #expect(try jlroutes.route("app://v/x#/top") == nil)
    }

    @Test func anEmptyQueryNameIsKept() throws {
        let harness = Harness()
        try harness.add("/q")
        let parameters = try #require(try harness.route("app://q?=v&a=1"))
        #expect(parameters[""] == "v")
        #expect(parameters["a"] == "1")
    }

    @Test func aTrailingSlashInAPatternIsIgnoredUnlessJLRoutesReadingIsOn() throws {
        let harness = Harness()
        try harness.add("/foo/")
        #expect(try harness.route("app://foo")?.pattern == "/foo/")
        #expect(try harness.route("app://foo/")?.pattern == "/foo/")

        for options: RoutePattern.Options in [.trailingSlashIsComponent, [.trailingSlashIsComponent, .optionalGroupsAreComponents]] {
            let jlroutes = Harness()
            jlroutes.router.configuration.patternOptions = options
            for pattern in ["/foo/", "/bar/:id/", "/baz(/:tab)/", "/v#/w/", "/", "/files/*/", "/plain", "/opt(/:tab)"] {
                try jlroutes.add(pattern)
            }
            for url in ["app://foo", "app://foo/", "app://foo//", "app://bar/1/", "app://v#/w/"] {
                #expect(try jlroutes.route(url) == nil, "\(url) with \(options)")
            }
            // JLRoutes trims every part of a pattern with groups, so with groups read as components the slash after
            // a group is no component.
            let groupsAreComponents = options.contains(.optionalGroupsAreComponents)
            #expect(try jlroutes.route("app://baz/t/")?["tab"] == (groupsAreComponents ? "t" : nil), "\(options)")
            #expect(try jlroutes.route("app://baz")?.pattern == (groupsAreComponents ? "/baz(/:tab)/" : nil), "\(options)")
            #expect(try jlroutes.route("app://")?.pattern == "/")
            #expect(try jlroutes.route("app://files/a/b")?.wildcardComponents == ["a", "b"])
            #expect(try jlroutes.route("app://plain/")?.pattern == "/plain")
            #expect(try jlroutes.route("app://opt/x")?["tab"] == "x")
            #expect(try jlroutes.route("app://opt")?.pattern == "/opt(/:tab)")
            #expect(jlroutes.router.routes().first?.pattern.expandedPatterns == ["/foo/"])
        }
    }

    @Test func theEmptyPatternIsTheRoot() throws {
        let harness = Harness()
        try harness.add("")
        #expect(try harness.route("app://")?.pattern == "")
        #expect(try harness.route("app:/")?.pattern == "")
        #expect(try harness.route("app://x") == nil)
    }

    @Test func hostsAreMachinesCaseInsensitivelyUnlessJLRoutesReadingIsOn() throws {
        let harness = Harness()
        try harness.add("/:id")
        try harness.add("/:host/:id")
        for url in ["http://localhost/5", "http://LOCALHOST/5", "http://[::1]:80/5", "http://a.b/5"] {
            #expect(try harness.route(url)?.pattern == "/:id", "\(url)")
        }
        let jlroutes = Harness()
        jlroutes.router.configuration.readsURLsLikeJLRoutes = true
        try jlroutes.add("/:id")
        try jlroutes.add("/:host/:id")
        #expect(try jlroutes.route("http://localhost/5")?.pattern == "/:id")
        #expect(try jlroutes.route("http://a.b/5")?.pattern == "/:id")
        #expect(try jlroutes.route("http://LOCALHOST/5")?["host"] == "LOCALHOST")
        #expect(try jlroutes.route("http://[::1]:80/5")?["host"] == "[::1]")
    }
}
