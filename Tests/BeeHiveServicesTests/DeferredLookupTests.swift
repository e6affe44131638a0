import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

/// The hook the hub installs for plugin folders: asked only on a miss, never by `canCreateService` to load.
@Suite struct DeferredServiceLookupTests {
    /// A lookup that "loads a plugin" by registering `HomeService` in code, counting its loads.
    static func install(on manager: ServiceManager, loads: Locked<[RecordIdentity]>, failing: Bool = false) {
        manager.deferred.withLock {
            $0 = DeferredLookup(
                declares: { $0.name.hasSuffix("HomeService") },
                // Weak: the manager keeps this closure.
                provide: { [weak manager] identity throws(DeferredPluginError) in
                    guard identity.name.hasSuffix("HomeService") else { return false }
                    if failing { throw DeferredPluginError(path: "/plugins/libhome.so", requested: identity, reason: .vanished) }
                    loads.withLock { $0.append(identity) }
                    manager?.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
                    return true
                })
        }
    }

    @Test func aMissLoadsOnceAndCanCreateServiceLoadsNothing() throws {
        let manager = ServiceManager()
        let loads = Locked<[RecordIdentity]>([])
        Self.install(on: manager, loads: loads)
        #expect(manager.canCreateService(HomeService.self))
        #expect(!manager.canCreateService(AccountService.self))
        #expect(loads.withLock { $0 }.isEmpty)
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(loads.withLock { $0.count } == 1)
        #expect(loads.withLock { $0.first?.qualifier } == "")
        #expect(throws: ServiceError.self) { try manager.resolve(AccountService.self) }
    }

    @Test func aNamedLookupFallsBackToTheUnnamedDeclaration() throws {
        let manager = ServiceManager()
        let loads = Locked<[RecordIdentity]>([])
        // Unowned: the manager keeps its deferred lookup, so a strong capture would keep it alive forever.
        manager.deferred.withLock { [unowned manager] in
            $0 = DeferredLookup(
                declares: { $0.qualifier.isEmpty },
                provide: { identity throws(DeferredPluginError) in
                    loads.withLock { $0.append(identity) }
                    return true
                })
        }
        #expect(manager.canCreateService(HomeService.self, name: "main"))
        #expect(throws: ServiceError.self) { try manager.resolve(HomeService.self, name: "main") }
        // Loaded once for the unnamed declaration; the lookup was tried again once, not in a loop.
        #expect(loads.withLock { $0.map(\.qualifier) } == [""])
    }

    @Test func aPluginThatCannotLoadIsATypedErrorNamingIt() {
        let manager = ServiceManager()
        Self.install(on: manager, loads: Locked([]), failing: true)
        #expect {
            try manager.resolve(HomeService.self)
        } throws: { error in
            guard let error = error as? ServiceError, case .pluginUnavailable(let failure) = error.kind else { return false }
            return failure.path == "/plugins/libhome.so" && failure.reason == .vanished && error.description.contains("libhome.so")
        }
        #expect(manager.createService(HomeService.self) == nil)
    }
}
