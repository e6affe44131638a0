@_spi(BeeHiveInternals) import BeeHiveModules
import Testing

private func failures(_ manager: ModuleManager) -> [HookFailure] {
    manager.diagnostics.compactMap { diagnostic in
        if case .hookFailed(let failure) = diagnostic.kind { return failure }
        return nil
    }
}

@Suite struct AsyncModuleTests {
    @Test func independentAsyncInitsOverlap() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(FirstOverlapModule.self)
        try manager.register(SecondOverlapModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(probe.isRaised("first saw second"))
        #expect(probe.isRaised("second saw first"))
        #expect(recorder.modules(receiving: .splash) == ["FirstOverlapModule", "SecondOverlapModule"])
        let lastInit = try #require(recorder.all.lastIndex { $0.hasSuffix(".init") })
        let firstSplash = try #require(recorder.all.firstIndex { $0.hasSuffix(".splash") })
        #expect(lastInit < firstSplash)
    }

    @Test func aDependentStartsAfterItsDependencyFinished() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(DependsOnSlowModule.self, level: .basic, priority: 100)
        try manager.register(SlowAsyncModule.self)
        try manager.register(AlphaModule.self)
        try manager.start()
        #expect(await probe.slowEntered.wait())
        #expect(probe.index(of: "dependent.init.begin") == nil)
        probe.release.open()
        try await manager.waitForLaunch()
        let dependencyEnd = try #require(probe.index(of: "slow.init.end"))
        let dependentBegin = try #require(probe.index(of: "dependent.init.begin"))
        #expect(dependencyEnd < dependentBegin)
        // A dependency comes first, whatever the level of its dependent.
        #expect(recorder.modules(receiving: .setUp) == ["AlphaModule", "SlowAsyncModule", "DependsOnSlowModule"])
        #expect(recorder.modules(receiving: .splash) == ["AlphaModule", "SlowAsyncModule", "DependsOnSlowModule"])
    }

    @Test func synchronousAndAsynchronousHooksMix() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(MixedHooksModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.all == [
            "AlphaModule.setUp", "MixedHooksModule.setUp", "AlphaModule.init", "MixedHooksModule.init",
            "AlphaModule.splash",
        ])
    }

    /// The manager knows an async module without a conformance lookup, from a witness that a subclass inherits
    /// from its synchronous superclass: every spelling must still get its async hooks.
    @Test func asyncHooksRunHoweverTheConformanceIsDeclared() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AsyncInExtensionModule.self)
        try manager.register(AsyncSubclassModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(Set(recorder.all) == ["AsyncInExtensionModule.init", "AsyncSubclassModule.init"])
    }

    @Test func shutdownDuringLaunchCancelsItAndTearsDownInReverse() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(SleepsUntilCancelledModule.self, priority: 10)
        try manager.register(DependsOnSleeperModule.self)
        try manager.register(BetaModule.self)
        try manager.start()
        #expect(await probe.sleeperEntered.wait())
        try await manager.shutdown()
        #expect(probe.isRaised("init cancelled"))
        #expect(recorder.modules(receiving: .initialize) == ["AlphaModule", "BetaModule"])
        #expect(recorder.modules(receiving: .splash).isEmpty)
        // Every module was set up before the inits began, so every one is torn down, last first.
        #expect(recorder.modules(receiving: .setUp) == [
            "AlphaModule", "SleepsUntilCancelledModule", "BetaModule", "DependsOnSleeperModule",
        ])
        #expect(recorder.modules(receiving: .tearDown) == [
            "DependsOnSleeperModule", "BetaModule", "SleepsUntilCancelledModule", "AlphaModule",
        ])
        try await manager.waitForLaunch()
    }

    @Test func terminateDuringLaunchCancelsItThenSendsWillTerminateToTheModulesSetUp() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(SleepsUntilCancelledModule.self)
        try manager.start()
        #expect(await probe.sleeperEntered.wait())
        try await manager.terminate(customParameter: "SIGTERM")
        #expect(probe.isRaised("init cancelled"))
        #expect(recorder.modules(receiving: .splash).isEmpty)
        #expect(recorder.modules(receiving: .willTerminate) == ["AlphaModule", "SleepsUntilCancelledModule"])
        #expect(recorder.modules(receiving: .tearDown) == ["SleepsUntilCancelledModule", "AlphaModule"])
        #expect(manager.isStopped)
    }

    /// A module whose setUp never ran (the launch was cancelled before it) gets neither willTerminate nor
    /// tearDown.
    @Test func terminateDuringSetUpSkipsTheModulesNotSetUp() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(SetUpUntilCancelledModule.self, level: .basic)
        try manager.register(AlphaModule.self)
        try manager.start()
        #expect(await probe.sleeperEntered.wait())
        try await manager.terminate()
        #expect(recorder.modules(receiving: .setUp) == ["SetUpUntilCancelledModule"])
        #expect(recorder.modules(receiving: .willTerminate) == ["SetUpUntilCancelledModule"])
        #expect(recorder.modules(receiving: .tearDown) == ["SetUpUntilCancelledModule"])
    }

    @Test func failingAsyncInitIsThrownByWaitForLaunchUnderFailFast() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .failFast)
        try manager.register(AlphaModule.self)
        try manager.register(StopsAppModule.self, level: .basic)
        try manager.start()
        await #expect {
            try await manager.waitForLaunch()
        } throws: { error in
            guard case ModuleError.hookFailed(let failure) = error else { return false }
            return failure.module == "BeeHiveModulesTests.StopsAppModule" && failure.event == .initialize
        }
        #expect(recorder.modules(receiving: .splash).isEmpty)
    }

    @Test func sendAwaitsAsyncHooksAndTerminateTearsDownInReverse() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(MixedHooksModule.self)
        try manager.register(ReloadStopsAppModule.self, priority: -1)
        try manager.start()
        try await manager.waitForLaunch()
        await #expect(throws: ModuleError.self) { try await manager.send(.reload) }
        #expect(recorder.modules(receiving: .reload) == ["AlphaModule", "ReloadStopsAppModule"])
        try await manager.terminate()
        #expect(recorder.modules(receiving: .willTerminate) == ["AlphaModule", "ReloadStopsAppModule"])
        #expect(recorder.modules(receiving: .tearDown) == ["ReloadStopsAppModule", "AlphaModule"])
        #expect(manager.isStopped)
    }

    @Test func profilerAndWatchdogSeeAsyncHooks() async throws {
        let probe = AsyncProbe()
        let (manager, _) = makeManager(
            watchdogThreshold: .milliseconds(20), profiling: true, extra: [AsyncProbe.key.name: probe])
        try manager.register(SlowAsyncModule.self)
        try manager.start()
        #expect(await probe.slowEntered.wait())
        try await Task.sleep(for: .milliseconds(100))
        probe.release.open()
        try await manager.waitForLaunch()
        let sample = try #require(manager.profiler.samples.first { $0.module.hasSuffix("SlowAsyncModule") && $0.event == .initialize })
        #expect(sample.duration >= .milliseconds(100))
        #expect(manager.watchdog?.reports.contains { $0.module.hasSuffix("SlowAsyncModule") && $0.event == .initialize } == true)
    }
}

@Suite struct TimeLimitTests {
    @Test func anAsyncHookOverrunningItsLimitIsCancelledReportedAndTheLaunchGoesOn() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(OverrunningAsyncModule.self)
        try manager.register(AlphaModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(await eventually { probe.isRaised("overrun cancelled") })
        let failure = try #require(failures(manager).first)
        #expect(failure.module == "BeeHiveModulesTests.OverrunningAsyncModule")
        #expect(failure.event == .initialize)
        #expect(failure.error as? HookTimeLimitExceeded == HookTimeLimitExceeded(limit: .seconds(10)))
        #expect("\(failure)".contains("OverrunningAsyncModule failed in init: ran longer than its time limit of 10.0 s"))
        // Under `.continue` the launch goes on: the module that overran is splashed like one that threw.
        #expect(recorder.modules(receiving: .splash) == ["AlphaModule", "OverrunningAsyncModule"])
    }

    @Test func aHookThatIgnoresCancellationIsLeftBehind() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(IgnoresCancellationModule.self)
        try manager.register(AlphaModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(!probe.release.isOpen)
        #expect(failures(manager).map(\.module) == ["BeeHiveModulesTests.IgnoresCancellationModule"])
        #expect(recorder.modules(receiving: .splash) == ["AlphaModule", "IgnoresCancellationModule"])
        probe.release.open()
    }

    /// setUps run one at a time: the one that overruns is left behind and the next module is set up.
    @Test func anAsyncSetUpThatOverrunsIsLeftBehindAndTheNextModuleIsSetUp() async throws {
        let probe = AsyncProbe()
        let (manager, recorder) = makeManager(extra: [AsyncProbe.key.name: probe])
        try manager.register(OverrunningSetUpModule.self, level: .basic)
        try manager.register(AlphaModule.self)
        try manager.register(TaskLocalReadingModule.self, priority: -1)
        try LaunchContext.$label.withValue("the launch's") { try manager.start() }
        try await manager.waitForLaunch()
        #expect(!probe.release.isOpen)
        let failure = try #require(failures(manager).first)
        #expect(failure.module == "BeeHiveModulesTests.OverrunningSetUpModule" && failure.event == .setUp)
        #expect(failure.error as? HookTimeLimitExceeded == HookTimeLimitExceeded(limit: .seconds(10)))
        #expect(recorder.modules(receiving: .setUp) == ["AlphaModule"])
        // The worker that took over from the overrunning setUp still sees the launch's task-local values.
        #expect(recorder.all.contains("setUp saw the launch's"))
        #expect(recorder.modules(receiving: .splash) == ["OverrunningSetUpModule", "AlphaModule"])
        probe.release.open()
    }

    @Test func aSynchronousHookOverrunningItsLimitIsReportedWhenItReturns() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(OverrunningSyncModule.self)
        try manager.register(AlphaModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .initialize) == ["AlphaModule", "OverrunningSyncModule"])
        let failure = try #require(failures(manager).first)
        #expect(failure.module == "BeeHiveModulesTests.OverrunningSyncModule" && failure.event == .initialize)
        #expect(failure.error is HookTimeLimitExceeded)
    }

    @Test func aTearDownOverrunningItsLimitDoesNotHoldUpTheShutdown() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(OverrunningTearDownModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        try await manager.shutdown()
        #expect(recorder.modules(receiving: .tearDown) == ["OverrunningTearDownModule", "AlphaModule"])
        #expect(failures(manager).map(\.event) == [.tearDown])
    }

    @Test func theManagersLimitAppliesToModulesWithoutTheirOwn() async throws {
        let recorder = Recorder()
        let probe = AsyncProbe()
        let manager = ModuleManager(
            configuration: ModuleManager.Configuration(
                launchTimeLimit: .seconds(10), launchOptions: LaunchOptions(arguments: [], environment: [:])),
            config: ConfigStore([Recorder.key.name: recorder, AsyncProbe.key.name: probe]))
        try manager.register(SleepsUntilCancelledModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(await eventually { probe.isRaised("init cancelled") })
        #expect(failures(manager).first?.error as? HookTimeLimitExceeded == HookTimeLimitExceeded(limit: .seconds(10)))
    }
}

@Suite struct ModuleFailureBehaviorTests {
    @Test func aModuleWhosePolicyStopsTheAppStopsItUnderContinue() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .continue)
        try manager.register(StopsAppModule.self, level: .basic)
        try manager.register(AlphaModule.self)
        try manager.start()
        await #expect(throws: ModuleError.self) { try await manager.waitForLaunch() }
        #expect(recorder.modules(receiving: .initialize).contains("StopsAppModule"))
        #expect(recorder.modules(receiving: .splash).isEmpty)
        let failure = try #require(await manager.failureStoppingApp())
        #expect(failure.module == "BeeHiveModulesTests.StopsAppModule")
    }

    @Test func aReportOnlyModuleDoesNotStopAFailFastLaunch() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .failFast)
        try manager.register(ReportOnlyModule.self, level: .basic)
        try manager.register(AlphaModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .splash) == ["ReportOnlyModule", "AlphaModule"])
        #expect(failures(manager).map(\.module) == ["BeeHiveModulesTests.ReportOnlyModule"])
    }

    @Test func aStopsAppFailureAfterLaunchResolvesFailureStoppingApp() async throws {
        let (manager, _) = makeManager(failurePolicy: .continue)
        try manager.register(ReloadStopsAppModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        async let stopping = manager.failureStoppingApp()
        await #expect(throws: ModuleError.self) { try await manager.send(.reload) }
        #expect(await stopping?.event == .reload)
    }

    @Test func failureStoppingAppIsNilOnceStoppedWithoutOne() async throws {
        let (manager, _) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        async let stopping = manager.failureStoppingApp()
        try await manager.terminate()
        #expect(await stopping == nil)
    }
}
