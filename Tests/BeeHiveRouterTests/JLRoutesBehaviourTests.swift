@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

/// The other cases of JLRoutes' test suite: schemes, priorities, handler chaining, removal, decoding, optional
/// groups, hosts, listing and handler types.
@Suite struct JLRoutesBehaviourTests {
    @Test func routesAreListedInOrderPerScheme() throws {
        let router = Router()
        for pattern in ["/global1", "/global2", "/global3"] { try router.addRoute(pattern) }
        #expect(router.routes().map(\.pattern.text) == ["/global1", "/global2", "/global3"])

        for pattern in ["/scheme1", "/scheme2"] { try router.addRoute(pattern, scheme: "scheme") }
        #expect(router.routes(scheme: "scheme").map(\.pattern.text) == ["/scheme1", "/scheme2"])
        #expect(router.routes(scheme: "foo").isEmpty)

        #expect(router.allRoutes.map(\.pattern.text) == ["/global1", "/global2", "/global3", "/scheme1", "/scheme2"])
        #expect(router.allRoutes.map(\.scheme) == [nil, nil, nil, "scheme", "scheme"])
    }

    @Test func severalPatternsAtOnce() throws {
        let harness = Harness()
        try harness.router.addRoutes(["/multiple1", "/multiple2"], handler: harness.handler)
        #expect(try harness.route("tests://multiple1")?.userCount == 0)
        #expect(try harness.route("tests://multiple2")?.userCount == 0)
    }

    @Test func higherPriorityIsTriedFirst() throws {
        let harness = Harness()
        try harness.add("/test/priority/:level")
        try harness.add("/test/priority/high", priority: 20)
        #expect(try harness.route("tests://test/priority/high")?.pattern == "/test/priority/high")
        #expect(try harness.route("tests://test/priority/low")?.pattern == "/test/priority/:level")
    }

    @Test func onlyNonZeroPriorities() throws {
        // JLRoutes issue 46: routes that all have a priority.
        let harness = Harness()
        try harness.add("/:foo/bar/:baz", scheme: "priorityTest", priority: 20)
        try harness.add("/:foo/things/:baz", scheme: "priorityTest", priority: 10)
        try harness.add("/:foo/:baz", scheme: "priorityTest", priority: 1)
        #expect(try harness.route("priorityTest://stuff/things/foo")?.pattern == "/:foo/things/:baz")
        #expect(try harness.route("priorityTest://one/two")?.pattern == "/:foo/:baz")
        #expect(try harness.route("priorityTest://stuff/bar/baz")?.pattern == "/:foo/bar/:baz")
    }

    @Test func equalPrioritiesKeepRegistrationOrder() throws {
        let harness = Harness()
        try harness.add("/items/:id", priority: 5)
        try harness.add("/items/new", priority: 5)
        try harness.add("/items/new", priority: 4)
        #expect(try harness.route("app://items/new")?.pattern == "/items/:id")
        #expect(harness.router.routes().map(\.priority) == [5, 5, 4])
    }

    @Test func handlerReturningFalseLetsTheNextRouteTry() throws {
        let router = Router()
        let recorder = Recorder()
        try router.addRoute("/return/:value") { parameters in parameters["value"] == "yes" }
        #expect(try router.route("tests://return/no").isHandled == false)
        #expect(try router.route("tests://return/yes").isHandled)

        try router.addRoute("/return/:other", handler: recorder.handler)
        let result = try router.route("tests://return/no")
        #expect(result.match?.route.pattern.text == "/return/:other")
        #expect(recorder.last?["other"] == "no")
    }

    @Test func sameRouteInSeveralSchemes() throws {
        let harness = Harness()
        try harness.add("/test")
        try harness.add("/test", scheme: "namespaceTest1")
        try harness.add("/test", scheme: "namespaceTest2")
        #expect(try harness.route("tests://test")?.scheme == RouteParameters.globalScheme)
        #expect(try harness.route("namespaceTest1://test")?.scheme == "namespaceTest1")
        #expect(try harness.route("namespaceTest2://test")?.scheme == "namespaceTest2")
    }

    @Test func schemesFallBackToGlobalRoutesOnlyWhenAsked() throws {
        let harness = Harness()
        try harness.add("/user/view/:userID")
        try harness.add("/test", scheme: "namespaceTest1")
        try harness.add("/test", scheme: "namespaceTest2")
        harness.router.setFallsBackToGlobalRoutes(true, forScheme: "namespaceTest2")
        #expect(harness.router.fallsBackToGlobalRoutes(forScheme: "namespaceTest2"))
        #expect(!harness.router.fallsBackToGlobalRoutes(forScheme: "namespaceTest1"))

        #expect(try harness.route("namespaceTest1://user/view/joeldev") == nil)
        let match = try #require(try harness.route("namespaceTest2://user/view/joeldev"))
        #expect(match.scheme == RouteParameters.globalScheme)
        #expect(match.userCount == 1)
        #expect(match["userID"] == "joeldev")
    }

    @Test func canRouteTellsWhetherARouteMatches() throws {
        let router = Router()
        try router.addRoute("/test")
        #expect(router.canRoute("tests:/test"))
        #expect(!router.canRoute("tests:/dfjkbsdkjfbskjdfb/sdasd"))
        try router.addRoute("/subscripting")
        #expect(router.canRoute("subscripting"))
    }

    @Test func separateRoutersAreIndependent() throws {
        let first = Router()
        let second = Router()
        try first.addRoute("/success")
        #expect(try first.route("/success").isHandled)
        #expect(try second.route("/success").isHandled == false)
    }

    @Test func removingRoutesAndSchemes() throws {
        let harness = Harness()
        try harness.add("/:anything")
        try harness.add("/test1", scheme: "namespaceTest3")
        try harness.add("/test2", scheme: "namespaceTest3")
        #expect(try harness.route("namespaceTest3://test1") != nil)

        #expect(harness.router.removeRoutes(withPattern: "/test1", scheme: "namespaceTest3") == 1)
        #expect(try harness.route("namespaceTest3://test1") == nil)
        #expect(try harness.route("namespaceTest3://test2")?.scheme == "namespaceTest3")

        harness.router.removeScheme("namespaceTest3")
        #expect(harness.router.schemes.isEmpty)
        #expect(try harness.route("namespaceTest3://test2")?.scheme == RouteParameters.globalScheme)
    }

    @Test func removingARouteByItsID() throws {
        let harness = Harness()
        let id = try harness.router.addRoute("/test", handler: harness.handler)
        #expect(try harness.route("tests://test")?.scheme == RouteParameters.globalScheme)
        #expect(harness.router.removeRoute(id))
        #expect(try harness.route("tests://test") == nil)
        #expect(!harness.router.removeRoute(id))
    }

    @Test(arguments: [
        ("joel%21levin", "joel!levin"), ("joel%23levin", "joel#levin"), ("joel%24levin", "joel$levin"),
        ("joel%26levin", "joel&levin"), ("joel%27levin", "joel'levin"), ("joel%28levin", "joel(levin"),
        ("joel%29levin", "joel)levin"), ("joel%2Alevin", "joel*levin"), ("joel%2Blevin", "joel+levin"),
        ("joel%2Clevin", "joel,levin"), ("joel%3Alevin", "joel:levin"), ("joel%3Blevin", "joel;levin"),
        ("joel%3Dlevin", "joel=levin"), ("joel%3Flevin", "joel?levin"), ("joel%40levin", "joel@levin"),
        ("joel%5Blevin", "joel[levin"), ("joel%5Dlevin", "joel]levin"),
    ])
    func percentEncodedValues(encoded: String, decoded: String) throws {
        let harness = Harness()
        harness.router.configuration.decodesPlusSymbols = false
        try harness.add("/user/view/:userID")
        let match = try #require(try harness.route("tests://user/view/\(encoded)"))
        #expect(match.userCount == 1)
        #expect(match["userID"] == decoded)
    }

    @Test func plusSymbolsAreDecodedUnlessSwitchedOff() throws {
        let harness = Harness()
        try harness.add("/user/view/:userID")
        #expect(harness.router.configuration.decodesPlusSymbols)
        #expect(try harness.route("tests://user/view/joel%2Blevin")?["userID"] == "joel levin")
        #expect(try harness.route("tests://user/view/joel+levin")?["userID"] == "joel levin")
        let query = try #require(try harness.route("tests://user/view/test?name=joel+levin"))
        #expect(query.userCount == 2)
        #expect(query["name"] == "joel levin")
        let list = try #require(try harness.route("tests://user/view/test?people=joel+levin&people=foo+bar"))
        #expect(list.userCount == 2)
        #expect(list.strings(forKey: "people") == ["joel levin", "foo bar"])

        harness.router.configuration.decodesPlusSymbols = false
        #expect(try harness.route("tests://user/view/joel%2Blevin")?["userID"] == "joel+levin")
        #expect(try harness.route("tests://user/view/joel+levin")?["userID"] == "joel+levin")
        #expect(try harness.route("tests://user/view/test?name=joel+levin")?["name"] == "joel+levin")
        #expect(try harness.route("tests://user/view/test?people=joel+levin&people=foo+bar")?.strings(forKey: "people") == ["joel+levin", "foo+bar"])
    }

    @Test func missingVariableBeforeWildcardDoesNotMatch() throws {
        let router = Router()
        try router.addRoute("list/:variable/detail/:variable2/*", scheme: "wildcardTests")
        #expect(try router.route("wildcardTests://list/variable/detail/").isHandled == false)
        #expect(try router.route("wildcardTests://list/variable/detail/variable2").isHandled)
    }

    @Test func optionalGroupsAtTheEnd() throws {
        let harness = Harness()
        try harness.add("/path/:thing(/new)(/anotherpath/:anotherthing)")
        #expect(harness.router.routes().first?.pattern.expandedPatterns.count == 4)

        let full = try #require(try harness.route("foo://path/abc/new/anotherpath/def"))
        #expect(full["thing"] == "abc")
        #expect(full["anotherthing"] == "def")
        let skipped = try #require(try harness.route("foo://path/foo/anotherpath/bar"))
        #expect(skipped["thing"] == "foo")
        #expect(skipped["anotherthing"] == "bar")
        #expect(try harness.route("foo://path/yyy/new")?["thing"] == "yyy")
        #expect(try harness.route("foo://path/zzz")?["thing"] == "zzz")
        #expect(try harness.route("foo://path/zzz/anotherpath") == nil)
    }

    @Test(arguments: ["/(rest/)(app/):object/:id", "/(rest/):object/(app/):id"])
    func optionalGroupsAtTheStartAndInterleaved(pattern: String) throws {
        let harness = Harness()
        try harness.add(pattern)
        #expect(harness.router.routes().first?.pattern.expandedPatterns.count == 4)
        let urls =
            pattern.hasPrefix("/(rest/)(app/)")
            ? ["foo://rest/app/aaa/bbb", "foo://app/aaa/bbb", "foo://rest/aaa/bbb", "foo://aaa/bbb"]
            : ["foo://rest/aaa/app/bbb", "foo://aaa/app/bbb", "foo://rest/aaa/bbb", "foo://aaa/bbb"]
        for url in urls {
            let match = try #require(try harness.route(url), "\(url)")
            #expect(match["object"] == "aaa", "\(url)")
            #expect(match["id"] == "bbb", "\(url)")
        }
    }

    @Test func urlsAsValues() throws {
        let harness = Harness()
        try harness.add("/web/:URLString")
        try harness.add("/web")
        #expect(try harness.route("tests://web/http%3A%2F%2Ffoobar.com%2Fbaz")?["URLString"] == "http://foobar.com/baz")
        #expect(try harness.route("tests://web?URLString=http%3A%2F%2Ffoobar.com%2Fbaz")?["URLString"] == "http://foobar.com/baz")
    }

    @Test func repeatedQueryKeysBecomeArrays() throws {
        let harness = Harness()
        try harness.add("/test/foo")
        let match = try #require(try harness.route("tests://test/foo?key=1&key=2&key=3&text=hi&text=there"))
        #expect(match.strings(forKey: "key") == ["1", "2", "3"])
        #expect(match.strings(forKey: "text") == ["hi", "there"])
        guard case .strings(let values) = match.value(forKey: "key") else {
            Issue.record("a repeated key should hold a list")
            return
        }
        #expect(values == ["1", "2", "3"])
    }

    @Test func hostIsAPathComponentOnlyWhenItIsNotADomain() throws {
        let harness = Harness()
        try harness.add("/sign_in")
        try harness.add("/path/:pathid")
        #expect(try harness.route("https://www.mydomain.com/sign_in")?.pattern == "/sign_in")
        let path = try #require(try harness.route("https://www.mydomain.com/path/3"))
        #expect(path.pattern == "/path/:pathid")
        #expect(path["pathid"] == "3")

        harness.router.configuration.alwaysTreatsHostAsPathComponent = true
        #expect(try harness.route("https://www.mydomain2.com/sign_in") == nil)
        #expect(try harness.route("https://www.mydomain2.com/path/3") == nil)

        try harness.add("/www.mydomain2.com/sign_in")
        try harness.add("/www.mydomain2.com/path/:pathid")
        #expect(try harness.route("https://www.mydomain2.com/sign_in")?.pattern == "/www.mydomain2.com/sign_in")
        let hostPath = try #require(try harness.route("https://www.mydomain2.com/path/3"))
        #expect(hostPath.pattern == "/www.mydomain2.com/path/:pathid")
        #expect(hostPath["pathid"] == "3")
    }

    @Test func weakTargetStopsHandlingOnceGone() throws {
        final class Target: Sendable {
            let seen = Mutex<RouteParameters?>(nil)
        }
        let router = Router()
        var target: Target? = Target()
        try router.addRoute("/test") { [weak target] parameters in
            guard let target else { return false }
            target.seen.withLock { $0 = parameters }
            return true
        }
        #expect(try router.route("/test").isHandled)
        #expect(target?.seen.withLock { $0?.pattern } == "/test")
        target = nil
        #expect(try router.route("/test").isHandled == false)
    }

    @Test func handlerTypeIsInstantiatedForEveryMatch() throws {
        let router = Router()
        let before = CountingHandler.instances.withLock { $0 }
        try router.addRoute("/counted/:id", handlerType: CountingHandler.self)
        #expect(try router.route("app://counted/a").isHandled)
        #expect(try router.route("app://counted/b").isHandled)
        #expect(CountingHandler.instances.withLock { $0 } - before >= 2)
        #expect(CountingHandler.seen.withLock { $0.contains("b") })
    }
}

final class CountingHandler: RouteHandler {
    static let instances = Mutex(0)
    static let seen = Mutex<Set<String>>([])

    init() { Self.instances.withLock { $0 += 1 } }

    func handle(_ parameters: RouteParameters) -> Bool {
        if let id = parameters["id"] { Self.seen.withLock { _ = $0.insert(id) } }
        return true
    }
}
