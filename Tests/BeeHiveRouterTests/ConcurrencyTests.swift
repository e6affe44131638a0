@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    /// A routing call keeps the copy of the tables its thread leased while its handlers change the routes: the
    /// call goes on through its own routes, the next call sees the changes, and a route a handler removed is
    /// released, with what its handler captured, when the call ends.
    @Test func changesAHandlerMakesReachTheNextCallAndRemovedRoutesAreReleased() throws {
        final class Captured: Sendable {}
        let router = Router()
        let order = Mutex<[String]>([])
        weak var released: Captured?
        do {
            let captured = Captured()
            released = captured
            try router.addRoute("/item/:id", priority: 2) { [weak router] _ in
                _ = captured
                order.withLock { $0.append("first") }
                guard let router else { return false }
                // Every route of the table goes, and a new one comes, while this call still holds the old ones.
                router.removeRoutes(withPattern: "/item/:id")
                _ = try? router.addRoute("/item/:id") { _ in
                    order.withLock { $0.append("added") }
                    return true
                }
                return false
            }
        }
        try router.addRoute("/item/:id", priority: 1) { _ in
            order.withLock { $0.append("second") }
            return true
        }
        #expect(try router.route("/item/1").isHandled)
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(released == nil)
        #expect(try router.route("/item/2").isHandled)
        #expect(order.withLock { $0 } == ["first", "second", "added"])
        #expect(router.routes().count == 1)
    }

    /// More threads than the router keeps copies for: threads that share a slot, or find it taken, copy the tables
    /// under the lock instead. Every URL is handled with its own values while a writer changes routes and the
    /// configuration; under ThreadSanitizer no race is reported.
    @Test func manyMoreThreadsThanLeasedCopiesRouteWhileTheTablesChange() throws {
        let router = Router()
        let wrong = Counter()
        let handled = Counter()
        for index in 0..<16 {
            try router.addRoute("/shared/\(index)/:n") { parameters in
                if parameters["n"] != parameters["expected"] { wrong.increment() }
                handled.increment()
                return true
            }
        }
        let threads = 40
        let steps = 150
        let writerDone = Atomic(false)
        try runOnThreads(threads + 1) { thread in
            if thread == threads {
                for round in 0..<300 {
                    let id = try? router.addRoute("/churn/\(round)/:x")
                    router.configuration.maximumRedirects = 8 + round % 5
                    if let id { router.removeRoute(id) }
                }
                writerDone.store(true, ordering: .releasing)
                return
            }
            for step in 0..<steps {
                let value = "\(thread)-\(step)"
                if (try? router.route("app://shared/\((thread + step) % 16)/\(value)", parameters: ["expected": value]))?.isHandled != true {
                    wrong.increment()
                }
            }
        }
        let writerFinished = writerDone.load(ordering: .acquiring)
        #expect(writerFinished)
        #expect(wrong.count == 0)
        #expect(handled.count == threads * steps)
    }
}

/// Runs `body` on `count` threads of its own at once (the task pool has as many threads as cores), with each
/// thread's index, and waits for all of them.
private func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    final class Start: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let failures = Counter()
    var threads: [pthread_t] = []
    for index in 0..<count {
        let start = Start {
            do { try body(index) } catch { failures.increment() }
        }
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(start).toOpaque())
        #expect(created == 0)
        if created == 0 { threads.append(thread) }
    }
    for thread in threads { pthread_join(thread, nil) }
    #expect(failures.count == 0)
}
