@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

/// Declining handlers and removals at scale: every route tried once, in order; removals leave the others intact.
/// (Their cost is measured by RoutingBenchmarks' Decline and Removal benchmarks.)
@Suite struct DecliningAndRemovalTests {
    /// 4,096 distinct patterns that all fit one URL: each of 12 components is a literal or a variable.
    static func overlappingPatterns() -> [String] {
        (0..<4_096).map { mask in
            "/" + (0..<12).map { bit in mask & (1 << bit) == 0 ? "c\(bit)" : ":v\(bit)" }.joined(separator: "/")
        }
    }

    static let overlappingURL = "/" + (0..<12).map { "c\($0)" }.joined(separator: "/")

    @Test func everyOverlappingRouteIsTriedOnceInPriorityThenRegistrationOrder() throws {
        let router = Router()
        let tried = Mutex<[Int]>([])
        let patterns = Self.overlappingPatterns()
        for (index, pattern) in patterns.enumerated() {
            // Three priorities, interleaved, so the order differs from registration order.
            try router.addRoute(pattern, priority: index % 3) { _ in
                tried.withLock { $0.append(index) }
                return false
            }
        }
        let result = try router.route(Self.overlappingURL)
        #expect(!result.isHandled)
        let expected = (0..<patterns.count).sorted { ($0 % 3, $1) > ($1 % 3, $0) }
        #expect(tried.withLock { $0 } == expected)
    }

    @Test func theLastOfManyDecliningRoutesHandlesWithItsOwnVariables() throws {
        let router = Router()
        for pattern in Self.overlappingPatterns().dropLast() {
            try router.addRoute(pattern) { _ in false }
        }
        let last = Self.overlappingPatterns().last!
        try router.addRoute(last)
        let match = try router.route(Self.overlappingURL + "?q=1").match
        #expect(match?.route.pattern.text == last)
        #expect(match?.parameters["v0"] == "c0")
        #expect(match?.parameters["v11"] == "c11")
        #expect(match?.parameters["q"] == "1")
    }

    @Test func decliningWildcardAndFragmentRoutesFallThroughInOrder() throws {
        let router = Router()
        let tried = Mutex<[String]>([])
        for pattern in ["/a/*", "/a/:x#/f", "/:y/b#/:z", "/a/b#/*", "/*"] {
            try router.addRoute(pattern) { parameters in
                tried.withLock { $0.append(parameters.pattern! + " " + parameters.description) }
                return false
            }
        }
        try router.route("/a/b#/f")
        // A path's `*` does not take the fragment marker: `/a/*` and `/*` do not fit a URL with a fragment path.
        #expect(tried.withLock { $0.map { String($0.prefix { $0 != " " }) } } == ["/a/:x#/f", "/:y/b#/:z", "/a/b#/*"])
        #expect(tried.withLock { $0[1] }.contains("z: \"f\""))
        tried.withLock { $0 = [] }
        try router.route("/a/b/f")
        #expect(tried.withLock { $0.map { String($0.prefix { $0 != " " }) } } == ["/a/*", "/*"])
    }

    @Test(arguments: [false, true])
    func tenThousandRoutesOfOnePatternAreRemovedOneByOne(byPattern: Bool) throws {
        let router = Router()
        let ids = try (0..<10_000).map { index in
            try router.addRoute("/same/:id", priority: index % 2) { $0["id"] == "\(index)" }
        }
        try router.addRoute("/same/:id", priority: -1) { _ in true }
        if byPattern {
            #expect(router.removeRoutes(withPattern: "/same/:id") == 10_001)
            #expect(router.routes().isEmpty)
            #expect(router.match("/same/1") == nil)
            return
        }
        // Remove from both ends and the middle, checking the next route in line each time.
        var remaining = Array(ids.enumerated())
        var generator = SplitMix.seeded()
        while remaining.count > 1 {
            let position = Int.random(in: 0..<remaining.count, using: &generator)
            #expect(router.removeRoute(remaining[position].element), "\(generator.replay)")
            remaining.remove(at: position)
            if remaining.count % 997 == 0 {
                let best = remaining.filter { $0.offset % 2 == 1 }.first ?? remaining.first!
                #expect(router.match("/same/x")?.route.id == best.element, "\(generator.replay)")
                #expect(try router.route("/same/\(best.offset)").match?.route.id == best.element, "\(generator.replay)")
            }
        }
        #expect(router.removeRoute(remaining[0].element))
        #expect(!router.removeRoute(remaining[0].element))
        #expect(router.routes().count == 1)
        #expect(router.match("/same/x")?.route.priority == -1)
    }

    @Test func removalKeepsEveryOtherRouteOfANodeInRankOrder() throws {
        let router = Router()
        var ids: [Int: RouteID] = [:]
        let tried = Mutex<[Int]>([])
        // Priorities 2, 1, 0 interleaved at one node, plus optional-group expansions that end there too.
        for index in 0..<60 {
            ids[index] = try router.addRoute(index % 4 == 0 ? "/n(/:x)" : "/n/:x", priority: index % 3) { _ in
                tried.withLock { $0.append(index) }
                return false
            }
        }
        for index in stride(from: 0, to: 60, by: 5) { #expect(router.removeRoute(ids[index]!)) }
        try router.route("/n/1")
        let kept = (0..<60).filter { $0 % 5 != 0 }.sorted { ($0 % 3, $1) > ($1 % 3, $0) }
        #expect(tried.withLock { $0 } == kept)
        tried.withLock { $0 = [] }
        try router.route("/n")
        #expect(tried.withLock { $0 } == kept.filter { $0 % 4 == 0 })
    }

    @Test func removingByPatternKeepsTheOtherRoutesOfItsNodesInRankOrder() throws {
        let router = Router()
        let tried = Mutex<[String]>([])
        func add(_ pattern: String, priority: Int, options: RoutePattern.Options = []) throws {
            router.configuration.patternOptions = options
            try router.addRoute(pattern, priority: priority) { _ in
                tried.withLock { $0.append("\(pattern) \(priority)") }
                return false
            }
        }
        // `/n(/:x)` and `/n/:x` end at the same node; the first is also registered read as JLRoutes reads it.
        try add("/n(/:x)", priority: 1)
        try add("/n/:x", priority: 2)
        try add("/n(/:x)", priority: 0)
        try add("/n/:x", priority: 1)
        try add("/n(/:x)", priority: 3, options: .optionalGroupsAreComponents)
        #expect(router.removeRoutes(withPattern: "/n(/:x)") == 3)
        #expect(router.removeRoutes(withPattern: "/n(/:x)") == 0)
        try router.route("/n/1")
        #expect(tried.withLock { $0 } == ["/n/:x 2", "/n/:x 1"])
        #expect(!router.canRoute("/n"))
        #expect(router.routes().map(\.priority) == [2, 1])
    }

    /// Parameters keep the route's pattern, not its handler: a handler that stores the parameters it receives in
    /// an object it captures (any app keeping its last request) is freed with its route, whether the route is
    /// removed or the router released.
    @Test func parametersAHandlerStoresDoNotKeepItsRouteAlive() throws {
        let router = Router()
        weak var removedRecorder: Recorder?
        do {
            let recorder = Recorder()
            removedRecorder = recorder
            let id = try router.addRoute("/user/:id", handler: recorder.handler)
            #expect(try router.route("/user/7?tab=a").isHandled)
            #expect(recorder.last?["id"] == "7")
            #expect(recorder.last?.pattern == "/user/:id")
            #expect(router.removeRoute(id))
        }
        #expect(removedRecorder == nil)

        weak var releasedRouter: Router?
        weak var releasedRecorder: Recorder?
        do {
            let other = Router()
            let recorder = Recorder()
            releasedRouter = other
            releasedRecorder = recorder
            try other.addRoute("/item/*", scheme: "shop", handler: recorder.handler)
            #expect(try other.route("shop://item/a/b").isHandled)
            #expect(recorder.last?.wildcardComponents == ["a", "b"])
            #expect(recorder.last?.scheme == "shop")
        }
        #expect(releasedRouter == nil)
        #expect(releasedRecorder == nil)
    }

    /// The same for what routing returns and the route listing: an app that keeps the last result, or the table,
    /// in an object its handler captures.
    @Test func resultsAndListingsAHandlerKeepsDoNotKeepItsRouteAlive() throws {
        final class Keeper: Sendable {
            let result = Mutex<RouteResult?>(nil)
            let listing = Mutex<[RouteDescriptor]>([])
        }
        let router = Router()
        weak var removedKeeper: Keeper?
        do {
            let keeper = Keeper()
            removedKeeper = keeper
            let id = try router.addRoute("/user/:id") { parameters in
                keeper.listing.withLock { $0 = [] }
                return parameters["id"] == "7"
            }
            let result = try router.route("/user/7")
            #expect(result.match?.route.pattern.text == "/user/:id")
            keeper.result.withLock { $0 = result }
            keeper.listing.withLock { $0 = router.routes() }
            #expect(router.removeRoute(id))
        }
        #expect(removedKeeper == nil)
    }

    @Test func parametersReadFromTheURLOnDemandBehaveLikeStoredOnes() throws {
        let router = Router()
        let seen = Mutex<[RouteParameters]>([])
        // Five variables are kept inline, nine spill.
        for pattern in ["/p/:a/:b/:c/:d/:e/*", "/p/:a/:b/:c/:d/:e/:v6/:v7/:v8/:v9", "/p/:a/:b/:c/:d/:e/*"] {
            try router.addRoute(pattern) { parameters in
                seen.withLock { $0.append(parameters) }
                return seen.withLock { $0.count } == 2
            }
        }
        let result = try router.route("app://p/1/2/3/4/caf%C3%A9/w1/w+2?q=x&q=y&e=query&f=z", parameters: ["c": "caller"])
        #expect(result.isHandled)
        let all = seen.withLock { $0 }
        #expect(all.count == 2)
        seen.withLock { $0 = [] }
        let spilled = try #require(try router.route("app://p/1/2/3/4/5/6/7/8/9?v9=query").match?.parameters)
        #expect(["a", "b", "c", "d", "e", "v6", "v7", "v8", "v9"].map { spilled[$0] } == (1...9).map { "\($0)" })
        #expect(spilled.count == 12)
        for parameters in all {
            #expect(parameters["a"] == "1")
            #expect(parameters["c"] == "caller")
            #expect(parameters["e"] == "café")
            #expect(parameters.strings(forKey: "q") == ["x", "y"])
            #expect(parameters["f"] == "z")
            #expect(parameters["missing"] == nil)
            #expect(parameters.wildcardComponents == ["w1", "w 2"])
            let reserved = ["BeeHiveRoutePattern", "BeeHiveRouteURL", "BeeHiveRouteScheme", "BeeHiveRouteWildcardComponents"]
            #expect(Set(parameters.keys) == Set(["a", "b", "c", "d", "e", "q", "f"] + reserved))
            #expect(parameters.count == 11)
        }
        var changed = all[0]
        changed.setValue(nil, forKey: "a")
        changed.setValue(.string("new"), forKey: "g")
        #expect(changed["a"] == nil)
        #expect(changed["b"] == "2")
        #expect(changed["g"] == "new")
        #expect(changed.strings(forKey: "q") == ["x", "y"])
        #expect(changed.wildcardComponents == ["w1", "w 2"])
        #expect(changed.count == 11)
        #expect(all[0]["a"] == "1")
    }

    /// Routes come and go on five patterns that all fit `/a/b`, so five route lists, one of wildcard routes. After
    /// every change, routing with declining handlers tries every live route in rank order, the best first, as a
    /// plain list sorted by priority and registration says. Lists emptied by removals are reused by later routes.
    @Test func churnOnOverlappingPatternsKeepsRankOrder() throws {
        let router = Router()
        let patterns = ["/a/:x", "/a/b", "/a/*", "/:y/b", "/:y/:z"]
        let tried = Mutex<[Int]>([])
        // Registration number -> (id, priority).
        var live: [Int: (id: RouteID, priority: Int)] = [:]
        var generator = SplitMix(seed: 14)
        for number in 0..<400 {
            if live.count > 3, generator.next() % 3 == 0 {
                let keys = live.keys.sorted()
                let removed = keys[Int(generator.next() % UInt64(keys.count))]
                #expect(router.removeRoute(live.removeValue(forKey: removed)!.id))
            } else {
                let priority = Int(generator.next() % 4) - 1
                let pattern = patterns[Int(generator.next() % UInt64(patterns.count))]
                let id = try router.addRoute(pattern, priority: priority) { _ in
                    tried.withLock { $0.append(number) }
                    return false
                }
                live[number] = (id, priority)
            }
            if number % 40 == 39 {
                // Empty every list, so the next routes reuse them.
                for (_, route) in live { #expect(router.removeRoute(route.id)) }
                live = [:]
            }
            let expected = live.keys.sorted { (live[$1]!.priority, $0) < (live[$0]!.priority, $1) }
            tried.withLock { $0 = [] }
            #expect(try !router.route("/a/b").isHandled)
            #expect(tried.withLock { $0 } == expected)
            #expect(router.match("/a/b")?.route.id == expected.first.map { live[$0]!.id })
        }
    }
}
