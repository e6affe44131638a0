@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

@Suite struct InterceptorTests {
    struct LoginRequired: RouteInterceptor {
        let loggedIn: Bool

        func intercept(_ request: RouteRequest) -> InterceptorDecision {
            guard request.pathComponents.first == "account" else { return .proceed }
            return loggedIn ? .proceed : .redirect(to: "app://login?next=\(request.url)")
        }
    }

    @Test func passingInterceptorsLetTheHandlerRun() throws {
        let harness = Harness()
        try harness.add("/account/:section")
        let seen = Mutex<[String]>([])
        harness.router.addInterceptor { request in
            seen.withLock { $0.append(request.url) }
            return .proceed
        }
        harness.router.addInterceptor(LoginRequired(loggedIn: true))
        #expect(try harness.route("app://account/settings")?["section"] == "settings")
        #expect(seen.withLock { $0 } == ["app://account/settings"])
    }

    @Test func rejectionStopsRoutingWithTheReason() throws {
        let harness = Harness()
        try harness.add("/admin/*")
        let id = harness.router.addInterceptor { request in
            request.pathComponents.first == "admin" ? .reject(reason: "admins only") : .proceed
        }
        let result = try harness.router.route("app://admin/users")
        guard case .rejected(let rejection) = result else {
            Issue.record("expected a rejection, got \(result)")
            return
        }
        #expect(rejection.reason == "admins only")
        #expect(rejection.url == "app://admin/users")
        #expect(rejection.interceptor == id)
        #expect(harness.recorder.count == 0)
        // Interceptors guard routing only; the table still knows the route.
        #expect(harness.router.canRoute("app://admin/users"))

        #expect(harness.router.removeInterceptor(id))
        #expect(try harness.route("app://admin/users") != nil)
        #expect(!harness.router.removeInterceptor(id))
    }

    @Test func redirectRoutesTheNewURLWithTheCallerParameters() throws {
        let harness = Harness()
        try harness.add("/account/:section")
        try harness.add("/login")
        let requests = Mutex<[RouteRequest]>([])
        harness.router.addInterceptor { request in
            requests.withLock { $0.append(request) }
            return .proceed
        }
        harness.router.addInterceptor(LoginRequired(loggedIn: false))
        let match = try #require(try harness.route("app://account/settings", parameters: ["source": "push"]))
        #expect(match.pattern == "/login")
        #expect(match["next"] == "app://account/settings")
        #expect(match["source"] == "push")
        #expect(match.url == "app://login?next=app://account/settings")
        #expect(requests.withLock { $0.map(\.redirects) } == [[], ["app://account/settings"]])
    }

    @Test func redirectLoopsAreReported() throws {
        let router = Router()
        try router.addRoute("/a")
        try router.addRoute("/b")
        router.addInterceptor { request in
            request.pathComponents == ["a"] ? .redirect(to: "app://b") : .redirect(to: "app://a")
        }
        #expect(throws: RoutingError.redirectLoop(chain: ["app://a", "app://b", "app://a"])) {
            try router.route("app://a")
        }
        let selfish = Router()
        selfish.addInterceptor(scheme: "self") { request in .redirect(to: request.url) }
        #expect(throws: RoutingError.redirectLoop(chain: ["self://x", "self://x"])) {
            try selfish.route("self://x")
        }
    }

    @Test func endlessRedirectsHitTheLimit() throws {
        let router = Router(configuration: RouterConfiguration(maximumRedirects: 3))
        router.addInterceptor { request in .redirect(to: request.url + "x") }
        #expect(throws: RoutingError.tooManyRedirects(chain: ["a:/", "a:/x", "a:/xx", "a:/xxx", "a:/xxxx"], limit: 3)) {
            try router.route("a:/")
        }
        let error = RoutingError.tooManyRedirects(chain: ["a", "b"], limit: 1)
        #expect(error.description.contains("maximumRedirects"))
    }

    @Test func schemeInterceptorsRunAfterGlobalOnesAndOnlyForTheirScheme() throws {
        let router = Router()
        try router.addRoute("/page")
        let order = Mutex<[String]>([])
        router.addInterceptor(scheme: "shop") { _ in
            order.withLock { $0.append("shop") }
            return .proceed
        }
        router.addInterceptor { _ in
            order.withLock { $0.append("global 1") }
            return .proceed
        }
        router.addInterceptor { _ in
            order.withLock { $0.append("global 2") }
            return .proceed
        }
        #expect(try router.route("shop://page").isHandled)
        #expect(order.withLock { $0 } == ["global 1", "global 2", "shop"])
        order.withLock { $0.removeAll() }
        #expect(try router.route("other://page").isHandled)
        #expect(order.withLock { $0 } == ["global 1", "global 2"])
    }

    @Test func interceptorsAlsoSeeURLsNoRouteMatches() throws {
        let harness = Harness()
        try harness.add("/not-found")
        // Weak: the router keeps its interceptors.
        harness.router.addInterceptor { [weak router = harness.router] request in
            router?.canRoute(request.url) == true ? .proceed : .redirect(to: "app://not-found")
        }
        #expect(try harness.route("app://nowhere")?.pattern == "/not-found")
    }
}
