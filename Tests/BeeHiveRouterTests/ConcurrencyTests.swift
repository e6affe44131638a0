import BeeHiveRouter
import Synchronization
import Testing

final class Counter: Sendable {
    private let value = Atomic(0)

    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

@Suite struct ConcurrencyTests {
    @Test func routingWhileRoutesAreAddedAndRemoved() async throws {
        let router = Router()
        let handled = Counter()
        for index in 0..<50 {
            try router.addRoute("/stable/\(index)/:id") { parameters in
                if parameters["id"] != nil { handled.increment() }
                return true
            }
        }
        let missed = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in 0..<3 {
                group.addTask {
                    for step in 0..<400 {
                        let result = try router.route("app://stable/\((reader * 7 + step) % 50)/\(step)")
                        if !result.isHandled { missed.increment() }
                        _ = router.canRoute("app://churn/\(step % 20)/x")
                        _ = router.match("app://churn/\(step % 20)/x?q=1")
                    }
                }
            }
            group.addTask {
                for round in 0..<200 {
                    let id = try router.addRoute("/churn/\(round % 20)/:value", scheme: round.isMultiple(of: 2) ? nil : "other")
                    router.configuration.decodesPlusSymbols = round.isMultiple(of: 3)
                    router.removeRoute(id)
                    if round.isMultiple(of: 50) { router.removeScheme("other") }
                }
            }
            try await group.waitForAll()
        }
        #expect(missed.count == 0)
        #expect(handled.count == 1200)
    }

    /// Routing calls share the tables they read, and a change edits them in place once no call holds them: here
    /// handlers remove and re-add their own route while other threads route through the same tables, and a
    /// writer changes routes, interceptors and the configuration meanwhile. Every handled URL got its values, the
    /// routes end registered, and under ThreadSanitizer no race is reported.
    @Test func handlersReplacingTheirOwnRoutesWhileOthersRoute() async throws {
        let router = Router()
        let handled = Counter()
        let wrongValues = Counter()
        @Sendable func replacing(_ pattern: String, in router: Router) throws {
            try router.addRoute(pattern) { [weak router] parameters in
                guard let router else { return false }
                if parameters["n"] == nil || parameters["q"] != "1" { wrongValues.increment() }
                router.removeRoutes(withPattern: pattern)
                try? replacing(pattern, in: router)
                handled.increment()
                return true
            }
        }
        for index in 0..<8 { try replacing("/self/\(index)/:n", in: router) }
        let results = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in 0..<3 {
                group.addTask {
                    for step in 0..<300 {
                        if try router.route("app://self/\((reader + step) % 8)/\(step)?q=1").isHandled { results.increment() }
                    }
                }
            }
            group.addTask {
                for round in 0..<150 {
                    let id = try router.addRoute("/other/\(round)/:x")
                    let interceptor = router.addInterceptor { _ in .proceed }
                    router.configuration.maximumRedirects = 8 + round % 4
                    router.removeRoute(id)
                    router.removeInterceptor(interceptor)
                }
            }
            try await group.waitForAll()
        }
        #expect(handled.count == results.count)
        #expect(handled.count > 0)
        #expect(wrongValues.count == 0)
        for index in 0..<8 { #expect(router.canRoute("app://self/\(index)/1")) }
    }

    @Test func handlersMayUseTheRouterWhileRouting() throws {
        let router = Router()
        // Weak: the router keeps its handlers.
        try router.addRoute("/outer") { [weak router] _ in
            guard let router else { return false }
            return (try? router.addRoute("/inner")) != nil && ((try? router.route("/inner"))?.isHandled ?? false)
        }
        #expect(try router.route("/outer").isHandled)
        #expect(router.canRoute("/inner"))
    }
}
