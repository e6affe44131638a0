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
