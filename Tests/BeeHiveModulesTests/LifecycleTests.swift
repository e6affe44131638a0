@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

@Suite struct LifecycleTests {
    @Test func setUpInitSplashThenTearDownInReverse() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(BetaModule.self, priority: 2)
        try manager.register(GammaModule.self, priority: 1)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.all == [
            "AlphaModule.setUp", "BetaModule.setUp", "GammaModule.setUp",
            "AlphaModule.init", "BetaModule.init", "GammaModule.init",
            "AlphaModule.splash", "BetaModule.splash", "GammaModule.splash",
        ])
        try manager.stop()
        #expect(recorder.modules(receiving: .tearDown) == ["GammaModule", "BetaModule", "AlphaModule"])
        #expect(recorder.modules(receiving: .unmount).isEmpty)
        #expect(throws: ModuleError.self) { try manager.trigger(.reload) }
    }

    @Test func emptyLaunchCompletes() async throws {
        let (manager, _) = makeManager()
        try manager.start()
        try await manager.waitForLaunch()
        #expect(manager.isStarted)
    }

    @Test func startTwiceIsRefused() throws {
        let (manager, _) = makeManager()
        try manager.start()
        #expect { try manager.start() } throws: { error in
            if case ModuleError.alreadyStarted = error { return true }
            return false
        }
    }

    @Test func eventsBeforeStartAreRefused() {
        let (manager, _) = makeManager()
        #expect { try manager.trigger(.reload) } throws: { error in
            if case ModuleError.notStarted = error { return "\(error)".contains("start()") }
            return false
        }
    }

    @Test func waitForLaunchBeforeStartIsRefused() async {
        let (manager, _) = makeManager()
        await #expect(throws: ModuleError.self) { try await manager.waitForLaunch() }
    }

    @Test func lateModuleCatchesUp() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        try manager.register(LateModule.self, level: .basic, priority: 1000)
        #expect(recorder.all.suffix(3) == ["LateModule.setUp", "LateModule.init", "LateModule.splash"])
        try await manager.waitForLaunch()
        // It now has its place in the one order: first, as a basic module.
        #expect(manager.modules.map(\.name).first == "BeeHiveModulesTests.LateModule")
        try manager.trigger(.reload)
        #expect(recorder.modules(receiving: .reload) == ["LateModule", "AlphaModule"])
    }

    @Test func lateAnnotatedModulesCatchUpAndLeaveWithTheirPlugin() throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        let plugin = [
            ModuleAnnotation(typeName: "BeeHiveModulesTests.BetaModule", priority: 5),
            ModuleAnnotation(typeName: "BeeHiveModulesTests.GammaModule", priority: 1),
        ]
        manager.apply(annotationUpdate(plugin, objectPath: "/opt/app/plugins/libextra.so"))
        #expect(recorder.all.suffix(6) == [
            "BetaModule.setUp", "GammaModule.setUp", "BetaModule.init", "GammaModule.init", "BetaModule.splash",
            "GammaModule.splash",
        ])
        manager.apply(annotationUpdate(plugin, objectPath: "/opt/app/plugins/libextra.so", removed: true))
        #expect(recorder.all.suffix(4) == ["GammaModule.tearDown", "GammaModule.unmount", "BetaModule.tearDown", "BetaModule.unmount"])
        #expect(manager.modules.map(\.name) == ["BeeHiveModulesTests.AlphaModule"])
    }

    @Test func removedRecordOfAnotherObjectLeavesTheModule() throws {
        let (manager, recorder) = makeManager()
        manager.apply(annotationUpdate([ModuleAnnotation(typeName: "BeeHiveModulesTests.BetaModule")], objectPath: "/app/a.so"))
        try manager.start()
        manager.apply(annotationUpdate([ModuleAnnotation(typeName: "BeeHiveModulesTests.BetaModule")], objectPath: "/app/b.so", removed: true))
        #expect(manager.modules.count == 1)
        #expect(recorder.modules(receiving: .tearDown).isEmpty)
    }

    @Test func unregisterGivesTearDownAndUnmount() throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.register(BetaModule.self)
        try manager.start()
        try manager.unregister(BetaModule.self)
        #expect(recorder.all.suffix(2) == ["BetaModule.tearDown", "BetaModule.unmount"])
        try manager.trigger(.reload)
        #expect(recorder.modules(receiving: .reload) == ["AlphaModule"])
        #expect(manager.module(BetaModule.self) == nil)
        #expect(manager.module(AlphaModule.self) != nil)
        #expect { try manager.unregister(named: "BeeHiveModulesTests.BetaModule") } throws: { error in
            if case ModuleError.notRegistered(let module) = error { return module == "BeeHiveModulesTests.BetaModule" }
            return false
        }
    }

    @Test func unregisterAfterStopOnlyUnmounts() throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        try manager.stop()
        try manager.unregister(named: "BeeHiveModulesTests.AlphaModule")
        #expect(recorder.all.suffix(2) == ["AlphaModule.tearDown", "AlphaModule.unmount"])
        #expect(recorder.modules(receiving: .tearDown).count == 1)
    }

    @Test func unregisterBeforeStartCallsNoHook() throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.unregister(AlphaModule.self)
        try manager.start()
        #expect(recorder.all.isEmpty)
    }

    @Test func unregisteringADependencyIsReported() throws {
        let (manager, _) = makeManager()
        try manager.register(PlistModule.self)
        try manager.register(CodeModule.self)
        try manager.start()
        try manager.unregister(PlistModule.self)
        #expect(manager.diagnostics.contains {
            if case .dependencyRemoved(let module, let dependents) = $0.kind {
                return module == "BeeHiveModulesTests.PlistModule" && dependents == ["BeeHiveModulesTests.CodeModule"]
            }
            return false
        })
    }

    @Test func lateModuleWithAMissingDependencyIsRefused() throws {
        let (manager, recorder) = makeManager()
        try manager.start()
        #expect { try manager.register(NeedsMissingModule.self) } throws: { error in
            "\(error)".contains("NeedsMissingModule depends on BeeHiveModulesTests.NowhereModule, which is not registered")
        }
        #expect(manager.modules.isEmpty)
        #expect(recorder.all.isEmpty)
    }

    @Test func moduleRegisteredFromAHookCatchesUp() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(RegistersAnotherModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.all.contains("LateModule.splash"))
        #expect(manager.module(LateModule.self) != nil)
    }
}

final class RegistersAnotherModule: Module {
    func splash(_ context: ModuleContext) throws {
        try context.manager.register(LateModule.self)
    }
}
