@_spi(BeeHiveInternals) import BeeHiveRouter
import Foundation
import Testing

/// Calls back into the router when it is released: code the router must not run under its own lock.
private final class CallsBackOnDeinit: Sendable {
    let callBack: @Sendable () -> Void
    init(_ callBack: @escaping @Sendable () -> Void) { self.callBack = callBack }
    deinit { callBack() }
}

/// A handler or interceptor the router removes is released after its lock is let go, so that its deinit may use
/// the router: each removal returns instead of deadlocking.
@Suite(.timeLimit(.minutes(1))) struct ReleaseOutsideLockTests {
    /// Runs `body` on a thread of its own; false when it did not return within `seconds` (a deadlock), which
    /// leaves that thread blocked rather than the test.
    private func returns(within seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    /// A route whose handler holds the only reference to an object that reads the router when released.
    private func addCallingBackRoute(_ pattern: String, scheme: String? = nil, to router: Router) throws -> RouteID {
        let guardian = CallsBackOnDeinit { [router] in _ = router.allRoutes }
        return try router.addRoute(pattern, scheme: scheme) { _ in
            _ = guardian
            return true
        }
    }

    @Test func removeRouteReleasesTheHandlerOutsideTheLock() throws {
        let router = Router()
        let id = try addCallingBackRoute("/a/:id", to: router)
        #expect(returns { _ = router.removeRoute(id) }, "a handler's deinit ran under the router's lock")
        #expect(router.allRoutes.isEmpty)
    }

    @Test func everyOtherRemovalReleasesOutsideTheLock() throws {
        let router = Router()
        _ = try addCallingBackRoute("/b", to: router)
        #expect(returns { _ = router.removeRoutes(withPattern: "/b") })
        _ = try addCallingBackRoute("/c", to: router)
        #expect(returns { router.removeAllRoutes() })
        _ = try addCallingBackRoute("/d", scheme: "shop", to: router)
        #expect(returns { router.removeScheme("shop") })
        _ = try addCallingBackRoute("/e", scheme: "cart", to: router)
        #expect(returns { router.removeAllSchemes() })
        let guardian = CallsBackOnDeinit { [router] in _ = router.allRoutes }
        let interceptor = router.addInterceptor { _ in
            _ = guardian
            return .proceed
        }
        #expect(returns { _ = router.removeInterceptor(interceptor) })
        #expect(router.allRoutes.isEmpty)
    }
}
