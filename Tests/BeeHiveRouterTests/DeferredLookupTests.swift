import Synchronization
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveRouter
import Testing

/// The hooks the hub installs for plugin folders in the router and the mediator: asked only on a miss.
@Suite struct DeferredRouteAndTargetLookupTests {
    @Test func anUnmatchedURLLoadsTheRoutesOnceAndCanRouteLoadsNothing() throws {
        let router = Router()
        let loads = Mutex(0)
        router.deferred.withLock {
            $0 = DeferredLookup(
                declares: { $0.hasPrefix("/late/") },
                // Weak: the router keeps this closure.
                provide: { [weak router] url throws(DeferredPluginError) in
                    guard url.hasPrefix("/late/") else { return false }
                    loads.withLock { $0 += 1 }
                    _ = try? router?.addRoute("/late/:id")
                    return true
                })
        }
        #expect(router.canRoute("/late/1"))
        #expect(!router.canRoute("/other"))
        #expect(loads.withLock { $0 } == 0)
        guard case .handled(let match) = try router.route("/late/1") else {
            Issue.record("not handled")
            return
        }
        #expect(match.parameters["id"] == "1")
        #expect(try router.route("/late/2").isHandled)
        #expect(loads.withLock { $0 } == 1)
        #expect(try !router.route("/other").isHandled)
    }

    /// The URL is matched as it was read before the plugin loaded, and its values are read again the same way,
    /// although the plugin changed how the router reads URLs: read the new way, the host is no component and
    /// every value would shift by one.
    @Test func aPluginThatChangesTheConfigurationLeavesTheMatchAsRead() throws {
        let router = Router(configuration: RouterConfiguration(alwaysTreatsHostAsPathComponent: true))
        router.deferred.withLock {
            $0 = DeferredLookup(
                declares: { _ in true },
                provide: { [weak router] _ throws(DeferredPluginError) in
                    _ = try? router?.addRoute("/:host/:id/*")
                    router?.configuration = RouterConfiguration(alwaysTreatsHostAsPathComponent: false)
                    return true
                })
        }
        let parameters = try #require(try router.route("app://late.example.com/7/w").match?.parameters)
        #expect(parameters["host"] == "late.example.com")
        #expect(parameters["id"] == "7")
        #expect(parameters.wildcardComponents == ["w"])
        #expect(router.match("app://late.example.com/7/w")?.parameters["host"] == "7")
    }

    @Test func aRouteWhosePluginCannotLoadIsATypedError() {
        let router = Router()
        router.deferred.withLock {
            $0 = DeferredLookup(
                declares: { _ in true },
                provide: { _ throws(DeferredPluginError) in
                    throw DeferredPluginError(
                        path: "/plugins/liblate.so", requested: RecordIdentity(kind: .route, name: "/late/:id"), reason: .changedSinceIndexed)
                })
        }
        #expect(throws: RoutingError.pluginUnavailable(
            DeferredPluginError(path: "/plugins/liblate.so", requested: RecordIdentity(kind: .route, name: "/late/:id"), reason: .changedSinceIndexed))) {
            try router.route("/late/1")
        }
    }

    @Test func anUnknownTargetLoadsItsPluginOnceAndCanPerformLoadsNothing() throws {
        let mediator = Mediator()
        let loads = Mutex(0)
        mediator.deferred.withLock {
            $0 = DeferredLookup(
                declares: { $0 == "shop" },
                // Weak: the mediator keeps this closure.
                provide: { [weak mediator] name throws(DeferredPluginError) in
                    guard name == "shop" else { return false }
                    loads.withLock { $0 += 1 }
                    mediator?.register(ShopTarget.self, as: "shop")
                    return true
                })
        }
        #expect(mediator.canPerform(target: "shop", action: "detail"))
        #expect(!mediator.canPerform(target: "cart", action: "detail"))
        #expect(loads.withLock { $0 } == 0)
        #expect(try mediator.perform(target: "shop", action: "detail", parameters: ["id": "4"]) as? String == "item 4")
        #expect(try mediator.perform(target: "shop", action: "detail", parameters: ["id": "5"]) as? String == "item 5")
        #expect(loads.withLock { $0 } == 1)
        #expect(throws: MediatorError.self) { try mediator.perform(target: "cart", action: "detail") }
    }
}
