@_spi(BeeHiveInternals) import BeeHiveModules
import Synchronization
import Testing

/// Gates and flags the async modules of one test share through the config store.
final class AsyncGates: Sendable {
    static let key = ConfigKey<AsyncGates>("test.asyncGates")
    let firstStarted = Gate()
    let secondStarted = Gate()
    let release = Gate()
    let entered = Gate()
    let timedOut = Atomic<Bool>(false)
    let startReturned = Atomic<Bool>(false)
    let initSawStartReturned = Atomic<Bool>(false)

    var didTimeOut: Bool { timedOut.load(ordering: .relaxed) }
    var initRanAfterStartReturned: Bool { initSawStartReturned.load(ordering: .relaxed) }
}

/// Waits inside init until the other rendezvous module is inside its init too: only possible if both run
/// at the same time.
final class RendezvousFirstModule: Recording {
    func initialize(_ context: ModuleContext) throws {
        let gates = context.config[AsyncGates.key]!
        gates.firstStarted.open()
        if !gates.secondStarted.wait() { gates.timedOut.store(true, ordering: .relaxed) }
        record(context)
    }
}

final class RendezvousSecondModule: Recording {
    func initialize(_ context: ModuleContext) throws {
        let gates = context.config[AsyncGates.key]!
        gates.secondStarted.open()
        if !gates.firstStarted.wait() { gates.timedOut.store(true, ordering: .relaxed) }
        record(context)
    }
}

/// Blocks in init until the test opens the gate, which it does only after `start()` returned.
final class GatedAsyncModule: Recording {
    func initialize(_ context: ModuleContext) throws {
        let gates = context.config[AsyncGates.key]!
        gates.entered.open()
        if !gates.release.wait() { gates.timedOut.store(true, ordering: .relaxed) }
        gates.initSawStartReturned.store(gates.startReturned.load(ordering: .relaxed), ordering: .relaxed)
        record(context)
    }
}

/// Synchronous, but needs the gated async module.
final class NeedsGatedModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(GatedAsyncModule.self)] }
}

/// Async, and needs the gated async module.
final class AsyncNeedsGatedModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(GatedAsyncModule.self)] }
}

final class FailingAsyncModule: Recording {
    func initialize(_ context: ModuleContext) throws {
        record(context)
        throw TestError(message: "async init refused")
    }
}

final class NeedsFailingAsyncModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(FailingAsyncModule.self)] }
}

@Suite struct AsyncInitTests {
    @Test func asyncInitsRunConcurrently() async throws {
        let gates = AsyncGates()
        let (manager, recorder) = makeManager(extra: [AsyncGates.key.name: gates])
        try manager.register(RendezvousFirstModule.self, isAsync: true)
        try manager.register(RendezvousSecondModule.self, isAsync: true)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(!gates.didTimeOut)
        #expect(Set(recorder.modules(receiving: .initialize)) == ["RendezvousFirstModule", "RendezvousSecondModule"])
        #expect(recorder.modules(receiving: .splash) == ["RendezvousFirstModule", "RendezvousSecondModule"])
    }

    @Test func asyncInitIsOffTheStartupPathAndSplashWaitsForIt() async throws {
        let gates = AsyncGates()
        let (manager, recorder) = makeManager(extra: [AsyncGates.key.name: gates])
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(GatedAsyncModule.self, isAsync: true)
        try manager.register(BetaModule.self)
        try manager.start()
        gates.startReturned.store(true, ordering: .relaxed)
        #expect(recorder.modules(receiving: .initialize) == ["AlphaModule", "BetaModule"])
        #expect(recorder.modules(receiving: .splash).isEmpty)
        gates.release.open()
        try await manager.waitForLaunch()
        #expect(!gates.didTimeOut)
        #expect(gates.initRanAfterStartReturned)
        #expect(recorder.modules(receiving: .splash) == ["AlphaModule", "BetaModule", "GatedAsyncModule"])
        let lastInit = try #require(recorder.index(of: "GatedAsyncModule.init"))
        let firstSplash = try #require(recorder.index(of: "AlphaModule.splash"))
        #expect(lastInit < firstSplash)
    }

    @Test func dependentsWaitForAnAsyncDependency() async throws {
        let gates = AsyncGates()
        let (manager, recorder) = makeManager(extra: [AsyncGates.key.name: gates])
        try manager.register(NeedsGatedModule.self, level: .basic, priority: 100)
        try manager.register(AsyncNeedsGatedModule.self, isAsync: true)
        try manager.register(GatedAsyncModule.self, isAsync: true)
        try manager.start()
        #expect(recorder.modules(receiving: .initialize).isEmpty)
        gates.release.open()
        try await manager.waitForLaunch()
        let gated = try #require(recorder.index(of: "GatedAsyncModule.init"))
        let syncDependent = try #require(recorder.index(of: "NeedsGatedModule.init"))
        let asyncDependent = try #require(recorder.index(of: "AsyncNeedsGatedModule.init"))
        #expect(gated < syncDependent)
        #expect(gated < asyncDependent)
        #expect(recorder.modules(receiving: .splash) == ["GatedAsyncModule", "NeedsGatedModule", "AsyncNeedsGatedModule"])
    }

    @Test func lateAsyncModuleCatchesUpAndIsAwaited() async throws {
        let gates = AsyncGates()
        let (manager, recorder) = makeManager(extra: [AsyncGates.key.name: gates])
        try manager.register(AlphaModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        try manager.register(GatedAsyncModule.self, isAsync: true)
        #expect(recorder.all.last == "GatedAsyncModule.setUp")
        gates.release.open()
        try await manager.waitForLaunch()
        #expect(recorder.all.suffix(2) == ["GatedAsyncModule.init", "GatedAsyncModule.splash"])
    }

    @Test func failingAsyncInitUnderFailFastSkipsDependentsAndSplash() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .failFast)
        try manager.register(FailingAsyncModule.self, isAsync: true)
        try manager.register(NeedsFailingAsyncModule.self)
        try manager.start()
        await #expect {
            try await manager.waitForLaunch()
        } throws: { error in
            guard case ModuleError.hookFailed(let failure) = error else { return false }
            return failure.module == "BeeHiveModulesTests.FailingAsyncModule" && failure.event == .initialize
        }
        #expect(recorder.modules(receiving: .initialize) == ["FailingAsyncModule"])
        #expect(recorder.modules(receiving: .splash).isEmpty)
    }

    @Test func failingAsyncInitUnderContinueGoesOn() async throws {
        let (manager, recorder) = makeManager(failurePolicy: .continue)
        try manager.register(FailingAsyncModule.self, isAsync: true)
        try manager.register(NeedsFailingAsyncModule.self)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .initialize) == ["FailingAsyncModule", "NeedsFailingAsyncModule"])
        #expect(recorder.modules(receiving: .splash) == ["FailingAsyncModule", "NeedsFailingAsyncModule"])
        #expect(manager.diagnostics.contains { "\($0)".contains("FailingAsyncModule failed in init: async init refused") })
    }

    @Test func stopDuringAPendingAsyncInitTearsDownWithoutInit() async throws {
        let gates = AsyncGates()
        let (manager, recorder) = makeManager(extra: [AsyncGates.key.name: gates])
        try manager.register(GatedAsyncModule.self, isAsync: true)
        try manager.register(NeedsGatedModule.self)
        try manager.start()
        #expect(gates.entered.wait())
        try manager.stop()
        // NeedsGatedModule was waiting for its dependency: torn down now, never initialized.
        #expect(recorder.modules(receiving: .tearDown) == ["NeedsGatedModule"])
        gates.release.open()
        try await manager.waitForLaunch()
        // The gated module was inside init when stop came: it is torn down when init returns.
        #expect(recorder.all.suffix(2) == ["GatedAsyncModule.init", "GatedAsyncModule.tearDown"])
        #expect(recorder.modules(receiving: .splash).isEmpty)
        #expect(!recorder.modules(receiving: .initialize).contains("NeedsGatedModule"))
    }
}
