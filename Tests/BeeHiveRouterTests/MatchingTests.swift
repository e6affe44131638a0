@_spi(BeeHiveInternals) import BeeHiveRouter
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import Testing

/// Backtracking through the trie, precedence across branches, and the parameters a match carries.
@Suite struct MatchingTests {
    /// vapor/vapor#3213: RoutingKit's trie follows `google` into `/google/callback` and fails `/google`.
    @Test func literalDeadEndFallsBackToVariable() throws {
        let harness = Harness()
        try harness.add("/:provider")
        try harness.add("/google/callback")
        let google = try #require(try harness.route("/google"))
        #expect(google.pattern == "/:provider")
        #expect(google["provider"] == "google")
        #expect(try harness.route("/google/callback")?.pattern == "/google/callback")
        #expect(try harness.route("/github")?["provider"] == "github")
        #expect(harness.router.canRoute("/google"))
    }

    @Test func backtracksSeveralLevels() throws {
        let harness = Harness()
        try harness.add("/a/b/c/d")
        try harness.add("/a/:x/c/e")
        try harness.add("/:y/b/f")
        let deep = try #require(try harness.route("/a/b/c/e"))
        #expect(deep.pattern == "/a/:x/c/e")
        #expect(deep["x"] == "b")
        let shallow = try #require(try harness.route("/a/b/f"))
        #expect(shallow.pattern == "/:y/b/f")
        #expect(shallow["y"] == "a")
        #expect(try harness.route("/a/b/c") == nil)
    }

    @Test func wildcardCatchesWhatLiteralsMiss() throws {
        let harness = Harness()
        try harness.add("/files/special/x")
        try harness.add("/files/*")
        #expect(try harness.route("/files/special")?.wildcardComponents == ["special"])
        #expect(try harness.route("/files/special/x")?.pattern == "/files/special/x")
        #expect(try harness.route("/files/a/b%20c")?.wildcardComponents == ["a", "b c"])
    }

    @Test func registrationOrderBeatsSpecificityAsInJLRoutes() throws {
        let harness = Harness()
        try harness.add("/:a")
        try harness.add("/x")
        #expect(try harness.route("/x")?.pattern == "/:a")
    }

    @Test func priorityDecidesAcrossBranches() throws {
        let harness = Harness()
        try harness.add("/user/me")
        try harness.add("/user/:id", priority: 10)
        try harness.add("/*", priority: 20)
        #expect(try harness.route("/user/me")?.pattern == "/*")
        harness.router.removeRoutes(withPattern: "/*")
        #expect(try harness.route("/user/me")?.pattern == "/user/:id")
    }

    @Test func decliningHandlersWalkEveryMatchInOrderThenTheGlobalTable() throws {
        let router = Router()
        let order = Mutex<[String]>([])
        func declining(_ name: String) -> Router.Handler {
            { _ in
                order.withLock { $0.append(name) }
                return false
            }
        }
        try router.addRoute("/:a/:b", scheme: "app", handler: declining("variables"))
        try router.addRoute("/x/*", scheme: "app", priority: 1, handler: declining("wildcard"))
        try router.addRoute("/x/y", scheme: "app", handler: declining("literal"))
        try router.addRoute("/x/:b", handler: declining("global"))
        router.setFallsBackToGlobalRoutes(true, forScheme: "app")
        let result = try router.route("app://x/y")
        #expect(!result.isHandled)
        #expect(order.withLock { $0 } == ["wildcard", "variables", "literal", "global"])
    }

    /// The router moves the URL's text into the match it builds for a handler, and back when every handler of a
    /// table declined: the fallback table's handlers, the unmatched handler and the result still see all of it.
    @Test func everyDecliningHandlerAndTheUnmatchedRequestSeeTheWholeURL() throws {
        let router = Router()
        let url = "app://x/7/y?q=1#frag=2"
        let seen = Mutex<[String]>([])
        func declining(_ name: String) -> Router.Handler {
            { parameters in
                let values = [parameters.url, parameters["b"], parameters["q"], parameters["frag"]].map { $0 ?? "-" }
                seen.withLock { $0.append("\(name) \(values.joined(separator: " "))") }
                return false
            }
        }
        try router.addRoute("/x/:b/y", scheme: "app", priority: 1, handler: declining("first"))
        try router.addRoute("/:a/:b/:c", scheme: "app", handler: declining("second"))
        try router.addRoute("/x/:b/*", handler: declining("global"))
        router.setFallsBackToGlobalRoutes(true, forScheme: "app")
        let unmatched = Mutex<[String]>([])
        router.setUnmatchedHandler({ request in unmatched.withLock { $0.append(request.url) } })

        let result = try router.route(url, parameters: ["from": "test"])
        guard case .unmatched(let request) = result else {
            Issue.record("expected an unmatched result, got \(result)")
            return
        }
        #expect(seen.withLock { $0 } == ["first \(url) 7 1 2", "second \(url) 7 1 2", "global \(url) 7 1 2"])
        #expect(request.url == url)
        #expect(request.pathComponents == ["x", "7", "y"])
        #expect(request.parameters["from"] == "test")
        #expect(unmatched.withLock { $0 } == [url])

        try router.addRoute("/x/:b/y") { parameters in parameters["b"] == "7" }
        let handled = try #require(try router.route(url).match)
        #expect(handled.parameters.url == url)
        #expect(handled.parameters["q"] == "1")
        #expect(handled.route.pattern.text == "/x/:b/y")
        #expect(router.match(url)?.parameters.url == url)
    }

    @Test func manyRoutesStillMatchExactly() throws {
        let router = Router()
        for index in 0..<10_000 {
            try router.addRoute("/section\(index % 100)/item\(index)/:id", priority: index % 3)
        }
        try router.addRoute("/section7/:item/:id/edit")
        for index in [0, 1, 4_999, 9_999] {
            let match = try #require(router.match("app://section\(index % 100)/item\(index)/42"))
            #expect(match.route.pattern.text == "/section\(index % 100)/item\(index)/:id")
            #expect(match.parameters["id"] == "42")
        }
        #expect(router.match("app://section7/item7/42/edit")?.parameters["item"] == "item7")
        #expect(router.match("app://section7/item8/42") == nil)
        #expect(router.routes().count == 10_001)
    }

    @Test func removingRoutesPrunesWithoutDisturbingOthers() throws {
        let router = Router()
        let drop = try router.addRoute("/a/b/c(/d)")
        let keep = try router.addRoute("/a/:x/c")
        #expect(router.match("/a/b/c")?.route.id == drop)
        #expect(router.removeRoute(drop))
        #expect(router.match("/a/b/c")?.route.id == keep)
        #expect(router.match("/a/b/c/d") == nil)
        let again = try router.addRoute("/a/b/c/d")
        #expect(router.match("/a/b/c/d")?.route.id == again)
    }

    @Test func callerValuesBeatRouteVariablesAndReservedKeysBeatEverything() throws {
        let harness = Harness()
        try harness.add("/user/:id")
        let match = try #require(
            try harness.route(
                "app://user/7?id=9&BeeHiveRoutePattern=evil",
                parameters: ["id": "caller", RouteParameters.ReservedKey.scheme: "evil"]))
        #expect(match["id"] == "caller")
        #expect(match.pattern == "/user/:id")
        #expect(match.scheme == RouteParameters.globalScheme)
        #expect(match.url == "app://user/7?id=9&BeeHiveRoutePattern=evil")
    }

    /// Values are read from the URL when asked for, the way the router read it when it matched: a configuration
    /// changed since does not move them.
    @Test func parametersAreReadAsTheURLWasWhenItMatched() throws {
        let router = Router(configuration: RouterConfiguration(alwaysTreatsHostAsPathComponent: true, readsURLsLikeJLRoutes: true))
        try router.addRoute("/example.com/:id/*")
        try router.addRoute("/:host/v/:x")
        let match = try #require(router.match("app://example.com/42/a+b/c?q=1"))
        let glued = try #require(router.match("app://h/v/x#top"))
        router.configuration = RouterConfiguration(decodesPlusSymbols: false)
        #expect(match.parameters["id"] == "42")
        #expect(match.parameters.wildcardComponents == ["a b", "c"])
        #expect(match.parameters["q"] == "1")
        #expect(glued.parameters["host"] == "h")
        #expect(glued.parameters["x"] == "x#top")
        #expect(glued.parameters.wildcardComponents == nil)
        #expect(router.match("app://h/v/x#top")?.parameters["x"] == "x")
    }

    /// A caller's value under a reserved key never survives a match, not even the wildcard of a route that has
    /// none, and changing the parameters keeps the match's.
    @Test func reservedKeysOfTheCallerYieldToTheMatch() throws {
        let router = Router()
        try router.addRoute("/plain/:id")
        let reserved = RouteParameters.ReservedKey.self
        var parameters = try #require(
            try router.route(
                "/plain/7", parameters: [reserved.wildcardComponents: ["w"], reserved.url: "caller", "extra": 1]
            ).match?.parameters)
        #expect(parameters.wildcardComponents == nil)
        #expect(parameters.url == "/plain/7")
        #expect(Set(parameters.keys) == [reserved.pattern, reserved.url, reserved.scheme, "id", "extra"])
        parameters.setValue(.string("8"), forKey: "id")
        #expect(parameters["id"] == "8")
        #expect(parameters.url == "/plain/7")
        #expect(parameters.pattern == "/plain/:id")
        #expect(parameters.wildcardComponents == nil)
        #expect(parameters.value(forKey: "extra", as: Int.self) == 1)
        #expect(parameters.count == 5)
        parameters.setValue(.string("mine"), forKey: reserved.url)
        #expect(parameters.url == "mine")
    }

    @Test func variablesNeverCaptureEmptyComponents() throws {
        let harness = Harness()
        try harness.add("/user/:id")
        #expect(try harness.route("app://user//") == nil)
        #expect(try harness.route("app://user//42")?["id"] == "42")
    }

    @Test func literalsCompareDecoded() throws {
        let harness = Harness()
        try harness.add("/caf%C3%A9/:dish")
        try harness.add("/menu")
        #expect(try harness.route("app://café/soup")?["dish"] == "soup")
        #expect(try harness.route("app://caf%C3%A9/soup")?["dish"] == "soup")
        #expect(try harness.route("app://m%65nu")?.pattern == "/menu")
        #expect(try harness.route("app://Menu") == nil)
    }

    @Test func fragmentMarkerOnlyMatchesFragmentPatterns() throws {
        let harness = Harness()
        try harness.add("/:a/:b")
        #expect(try harness.route("app://post#/edit") == nil)
        #expect(try harness.route("app://post%23/edit")?["a"] == "post#")
    }

    @Test func hostsWithUserPortAndAddresses() throws {
        let harness = Harness()
        try harness.add("/user/:id")
        try harness.add("/:id")
        #expect(try harness.route("app://someone@user:8080/5")?["id"] == "5")
        #expect(try harness.route("http://127.0.0.1/5")?.pattern == "/:id")
        #expect(try harness.route("http://[::1]:80/5")?.pattern == "/:id")
        #expect(try harness.route("http://LOCALHOST/5")?.pattern == "/:id")
    }

    @Test func schemesAreCaseInsensitive() throws {
        let harness = Harness()
        try harness.add("/test", scheme: "MyApp")
        #expect(harness.router.schemes == ["myapp"])
        #expect(try harness.route("myapp://test")?.scheme == "MyApp")
        #expect(try harness.route("MYAPP://test")?.scheme == "MyApp")
    }

    @Test func addingSeveralPatternsIsAllOrNothing() throws {
        let router = Router()
        #expect(throws: RoutePatternError.self) {
            try router.addRoutes(["/fine", "/broken/("])
        }
        #expect(router.routes().isEmpty)
    }

    @Test func emptySchemeTableHidesGlobalRoutes() throws {
        let router = Router()
        try router.addRoute("/test")
        router.addScheme("closed")
        #expect(!router.canRoute("closed://test"))
        router.setFallsBackToGlobalRoutes(true, forScheme: "closed")
        #expect(router.canRoute("closed://test"))
        router.removeAllSchemes()
        #expect(router.canRoute("closed://test"))
    }

    @Test func removeAllRoutesKeepsTheTable() throws {
        let router = Router()
        try router.addRoute("/test")
        try router.addRoute("/a", scheme: "s")
        try router.addRoute("/b", scheme: "s")
        router.removeAllRoutes(scheme: "s")
        #expect(router.schemes == ["s"])
        #expect(!router.canRoute("s://test"))
        router.removeAllRoutes()
        #expect(!router.canRoute("/test"))
    }

    @Test func unmatchedHandlerIsCalledForTheTableTheURLWentTo() throws {
        let router = Router()
        let global = Mutex<[String]>([])
        let scheme = Mutex<[String]>([])
        router.setUnmatchedHandler({ request in global.withLock { $0.append(request.url) } })
        router.setUnmatchedHandler({ request in scheme.withLock { $0.append(request.url) } }, forScheme: "thing")
        try router.addRoute("/known")

        let missed = try router.route("other://missing/42?x=1", parameters: ["from": "test"])
        guard case .unmatched(let request) = missed else {
            Issue.record("expected an unmatched result, got \(missed)")
            return
        }
        #expect(request.pathComponents == ["missing", "42"])
        #expect(request.parameters["from"] == "test")
        #expect(try router.route("thing://missing").isHandled == false)
        #expect(try router.route("other://known").isHandled)
        #expect(global.withLock { $0 } == ["other://missing/42?x=1"])
        #expect(scheme.withLock { $0 } == ["thing://missing"])

        router.setUnmatchedHandler(nil, forScheme: "thing")
        router.setFallsBackToGlobalRoutes(true, forScheme: "thing")
        #expect(try router.route("thing://gone").isHandled == false)
        #expect(global.withLock { $0 }.last == "thing://gone")
        #expect(!router.canRoute("thing://gone"))
    }

    @Test func matchReportsTheRouteWithoutRunningIt() throws {
        let router = Router()
        let recorder = Recorder()
        let id = try router.addRoute("/user/:id", scheme: "app", priority: 3, handler: recorder.handler)
        let match = try #require(router.match("app://user/9?tab=posts", parameters: ["x": 1]))
        #expect(match.route.id == id)
        #expect(match.route.scheme == "app")
        #expect(match.route.priority == 3)
        #expect(match.parameters["id"] == "9")
        #expect(match.parameters["tab"] == "posts")
        #expect(match.parameters.value(forKey: "x", as: Int.self) == 1)
        #expect(recorder.count == 0)
    }
}

@Suite struct RegistrationTests {
    @Test func removingByPatternRemovesEveryRegistrationOfIt() throws {
        let router = Router()
        try router.addRoute("/dup") { _ in false }
        try router.addRoute("/dup")
        try router.addRoute("/dup", scheme: "other")
        #expect(router.removeRoutes(withPattern: "/dup") == 2)
        #expect(router.routes().isEmpty)
        #expect(router.routes(scheme: "other").count == 1)
        #expect(router.removeRoutes(withPattern: "/dup", scheme: "missing") == 0)
    }

    @Test func fragmentParametersWithoutAPath() throws {
        let harness = Harness()
        try harness.add("/page")
        #expect(try harness.route("app://page#?a=1")?["a"] == "1")
        let both = try #require(try harness.route("app://page#a=&b=1"))
        #expect(both["a"] == "")
        #expect(both["b"] == "1")
    }

    @Test func foundationURLsRouteLikeTheirText() throws {
        let harness = Harness()
        try harness.add("/user/:id")
        let url = try #require(URL(string: "myapp://user/42?tab=a"))
        #expect(harness.router.canRoute(url))
        #expect(harness.router.match(url)?.parameters["tab"] == "a")
        #expect(try harness.router.route(url).match?.parameters["id"] == "42")
    }

    @Test func parametersDescribeThemselves() throws {
        var parameters = RouteParameters(["b": "x", "a": 1, "list": ["p", "q"]])
        parameters.setValue(.string("/p"), forKey: RouteParameters.ReservedKey.pattern)
        #expect(parameters.description == "[BeeHiveRoutePattern: \"/p\", a: 1, b: \"x\", list: [\"p\", \"q\"]]")
        #expect(parameters.count == 4)
        #expect(parameters.contains("a"))
        #expect(parameters.strings(forKey: "list") == ["p", "q"])
        #expect(parameters["list"] == "p")
        parameters.setValue(nil, forKey: "a")
        #expect(!parameters.contains("a"))
        #expect(parameters.keys.sorted() == ["BeeHiveRoutePattern", "b", "list"])
    }
}
