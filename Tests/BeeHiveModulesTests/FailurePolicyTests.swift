@_spi(BeeHiveInternals) import BeeHiveModules
import Testing

@Suite struct FailurePolicyTests {
    @Test func continuePolicyReportsAndDeliversToTheRest() throws {
        let (manager, recorder) = makeManager(failurePolicy: .continue)
        try manager.register(AlphaModule.self, priority: 3)
        try manager.register(FailingModule.self, priority: 2)
        try manager.register(BetaModule.self, priority: 1)
        try manager.start()
        try manager.trigger(.reload)
        #expect(recorder.modules(receiving: .reload) == ["AlphaModule", "FailingModule", "BetaModule"])
        let failures = manager.diagnostics.compactMap { diagnostic -> HookFailure? in
            if case .hookFailed(let failure) = diagnostic.kind { return failure }
            return nil
        }
        #expect(failures.count == 1)
        #expect(failures.first?.module == "BeeHiveModulesTests.FailingModule")
        #expect(failures.first?.event == .reload)
        #expect(failures.first.map { "\($0.error)" } == "reload refused")
        #expect(manager.diagnostics.first?.description == "module BeeHiveModulesTests.FailingModule failed in reload: reload refused")
    }

    @Test func failFastStopsTheDispatchAndThrows() throws {
        let (manager, recorder) = makeManager(failurePolicy: .failFast)
        try manager.register(AlphaModule.self, priority: 3)
        try manager.register(FailingModule.self, priority: 2)
        try manager.register(BetaModule.self, priority: 1)
        try manager.start()
        #expect {
            try manager.trigger(.reload)
        } throws: { error in
            guard case ModuleError.hookFailed(let failure) = error else { return false }
            return failure.module == "BeeHiveModulesTests.FailingModule" && failure.event == .reload
                && "\(error)".contains("module BeeHiveModulesTests.FailingModule failed in reload: reload refused")
        }
        #expect(recorder.modules(receiving: .reload) == ["AlphaModule", "FailingModule"])
        #expect(manager.diagnostics.count == 1)
    }

    @Test func failFastStopsTheLaunchAtAFailingSetUp() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .failFast, extra: [FailingModule.failSetUp.name: true])
        try manager.register(AlphaModule.self, priority: 3)
        try manager.register(FailingModule.self, priority: 2)
        try manager.register(BetaModule.self, priority: 1)
        #expect(throws: ModuleError.self) { try manager.start() }
        #expect(recorder.all == ["AlphaModule.setUp", "FailingModule.setUp"])
        await #expect(throws: ModuleError.self) { try await manager.waitForLaunch() }
        try manager.stop()
        #expect(recorder.modules(receiving: .tearDown) == ["FailingModule", "AlphaModule"])
    }

    @Test func continuePolicyLaunchesPastAFailingSetUp() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .continue, extra: [FailingModule.failSetUp.name: true])
        try manager.register(FailingModule.self, priority: 2)
        try manager.register(BetaModule.self, priority: 1)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .splash) == ["FailingModule", "BetaModule"])
        #expect(manager.diagnostics.contains { $0.description.contains("FailingModule failed in setUp") })
    }
}
