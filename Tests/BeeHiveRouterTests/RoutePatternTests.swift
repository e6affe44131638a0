@_spi(BeeHiveInternals) import BeeHiveRouter
import Testing

@Suite struct RoutePatternTests {
    @Test(arguments: [
        ("/user/(:id", RoutePatternError.Reason.unclosedGroup(offset: 6)),
        ("/user/:id)", .unopenedGroup(offset: 9)),
        ("/a(/b(/c)", .unclosedGroup(offset: 2)),
        ("/user/()", .emptyGroup(offset: 6)),
        ("/a/:id/b/:id", .duplicateVariable(name: "id")),
        ("/a(/:id)(/b/:id)", .duplicateVariable(name: "id")),
        ((0..<40).map { "/:v\($0)" }.joined() + "/:v7", .duplicateVariable(name: "v7")),
        ("/a/:BeeHiveRoutePattern", .reservedVariableName(name: "BeeHiveRoutePattern")),
        ("/files/*/edit", .wildcardNotLast),
        ("/files(/*)/edit", .wildcardNotLast),
        ("/files/*#/x", .wildcardNotLast),
        ("/a#/b#/c", .multipleFragments),
        ("/search?q=:q", .queryInPattern),
        ("/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)(/j)(/k)(/l)", .tooManyExpansions(count: 2048, limit: 1024)),
    ])
    func malformedPatternsAreRefusedWithTheirReason(pattern: String, reason: RoutePatternError.Reason) {
        #expect(throws: RoutePatternError(pattern: pattern, reason: reason)) {
            try RoutePattern(pattern)
        }
        let router = Router()
        #expect(throws: RoutePatternError(pattern: pattern, reason: reason)) {
            try router.addRoute(pattern)
        }
        #expect(router.routes().isEmpty)
    }

    @Test(arguments: [
        ("", "/"), ("/", "/"), ("a//b/", "/a/b"), ("//a/:id//", "/a/:id"), ("#/a", "/#/a"), ("/a#", "/a#"),
        ("/a/#//b/", "/a#/b"), ("/caf%C3%A9/:x/*", "/caf%C3%A9/:x/*"),
    ])
    func patternsWithoutGroupsAreReadAsOneExpansion(pattern: String, expanded: String) throws {
        #expect(try RoutePattern(pattern).expandedPatterns == [expanded])
    }

    @Test func errorsSayWhatToDo() {
        let error = RoutePatternError(pattern: "/user/(:id", reason: .unclosedGroup(offset: 6))
        #expect(error.description == "invalid route pattern \"/user/(:id\": '(' at offset 6 is never closed; close the optional group with ')'")
    }

    @Test func optionalGroupsExpandLongestFirstInJLRoutesOrder() throws {
        let pattern = try RoutePattern("/the(/foo/:a)(/bar/:b)")
        #expect(pattern.expandedPatterns == ["/the/foo/:a/bar/:b", "/the/foo/:a", "/the/bar/:b", "/the"])
        #expect(pattern.variableNames == ["a", "b"])

        let start = try RoutePattern("/(rest/)(app/):object/:id")
        #expect(start.expandedPatterns == ["/rest/app/:object/:id", "/rest/:object/:id", "/app/:object/:id", "/:object/:id"])
    }

    @Test func tenIndependentGroupsAreTheLimit() throws {
        let pattern = try RoutePattern("/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)(/j)(/k)")
        #expect(pattern.expandedPatterns.count == RoutePattern.maximumExpansionCount)
        #expect(pattern.expandedPatterns.first == "/a/b/c/d/e/f/g/h/i/j/k")
        #expect(pattern.expandedPatterns.last == "/a")
    }

    @Test func groupsNestAndMaySitInsideAComponent() throws {
        #expect(try RoutePattern("/a(/b(/c))").expandedPatterns == ["/a/b/c", "/a/b", "/a"])
        #expect(try RoutePattern("/user(s)/:id").expandedPatterns == ["/users/:id", "/user/:id"])
        #expect(try RoutePattern("(/x)").expandedPatterns == ["/x", "/"])
    }

    @Test func jlroutesReadsGroupsAsWholeComponentsWhenAsked() throws {
        let options = RoutePattern.Options.optionalGroupsAreComponents
        #expect(try RoutePattern("/user(s)/:id", options: options).expandedPatterns == ["/user/s/:id", "/user/:id"])
        #expect(try RoutePattern("/the(/foo/:a)(/bar/:b)", options: options).expandedPatterns
            == ["/the/foo/:a/bar/:b", "/the/foo/:a", "/the/bar/:b", "/the"])
        #expect(try RoutePattern("/(rest/)(app/):object/:id", options: options).expandedPatterns
            == ["/rest/app/:object/:id", "/rest/:object/:id", "/app/:object/:id", "/:object/:id"])
        let router = Router(configuration: RouterConfiguration(patternOptions: options))
        try router.addRoute("/user(s)/:id")
        #expect(router.match("/user/s/42")?.parameters["id"] == "42")
        #expect(router.match("/users/42") == nil)
    }

    @Test func theEmptyPatternIsTheRootAndALoneColonIsAVariableNamedColon() throws {
        #expect(try RoutePattern("").expandedPatterns == ["/"])
        #expect(try RoutePattern("/:").variableNames == [":"])
        #expect(try RoutePattern("/user/:/edit").expandedPatterns == ["/user/:/edit"])
        let router = Router()
        try router.addRoute("")
        try router.addRoute("/:")
        #expect(router.match("app://")?.route.pattern.text == "")
        #expect(router.match("/")?.route.pattern.text == "")
        #expect(router.match("app://x")?.parameters[":"] == "x")
    }

    @Test func normalisedText() throws {
        #expect(try RoutePattern("list//:a/").expandedPatterns == ["/list/:a"])
        #expect(try RoutePattern("/user#/view/:id").expandedPatterns == ["/user#/view/:id"])
        #expect(try RoutePattern("/xyz/wildcard#/*").expandedPatterns == ["/xyz/wildcard#/*"])
        #expect(try RoutePattern("/page#").expandedPatterns == ["/page#"])
        #expect(try RoutePattern("/").text == "/")
        #expect(try RoutePattern("/").expandedPatterns == ["/"])
    }

    @Test func patternsCompareByText() throws {
        #expect(try RoutePattern("/a/:b") == RoutePattern("/a/:b"))
        #expect(try RoutePattern("/a/:b") != RoutePattern("/a/:c"))
        #expect(try RoutePattern("/a/:b").description == "/a/:b")
    }
}
