import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Signals are process-wide: these tests run one at a time, and each sends only signals it listens for.
@Suite(.serialized) struct ProcessEventSourceTests {
    @Test func userSignalsAndHangUpBecomeEvents() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        let source = ProcessEventSource(manager: manager, signals: [.user1, .user2, .hangUp], onTermination: { _ in })
        source.start()
        defer { source.cancel() }
        #expect(source.isStarted)

        kill(getpid(), SIGUSR1)
        #expect(await eventually { recorder.all.contains("AlphaModule.userSignal1") })
        kill(getpid(), SIGUSR2)
        #expect(await eventually { recorder.all.contains("AlphaModule.userSignal2") })
        kill(getpid(), SIGHUP)
        #expect(await eventually { recorder.all.contains("AlphaModule.reload") })
        #expect(recorder.all.suffix(3) == ["AlphaModule.userSignal1", "AlphaModule.userSignal2", "AlphaModule.reload"])
    }

    @Test(arguments: [ProcessSignal.terminate, .interrupt])
    func terminationSignalGivesWillTerminateThenTearDown(signal: ProcessSignal) async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, priority: 1)
        try manager.register(BetaModule.self)
        try manager.register(SignalNoteModule.self)
        try manager.start()
        let terminated = Locked<ProcessSignal?>(nil)
        let source = ProcessEventSource(manager: manager, signals: [signal]) { received in
            terminated.withLock { $0 = received }
        }
        source.start()
        defer { source.cancel() }

        kill(getpid(), signal.number)
        #expect(await eventually { terminated.withLock { $0 } != nil })
        #expect(terminated.withLock { $0 } == signal)
        #expect(recorder.all.suffix(6) == [
            "AlphaModule.willTerminate", "BetaModule.willTerminate", "SignalNoteModule.\(signal)",
            "SignalNoteModule.tearDown", "BetaModule.tearDown", "AlphaModule.tearDown",
        ])
        #expect(throws: ModuleError.self) { try manager.trigger(.reload) }
    }

    @Test func mappingOfSignalsToEvents() {
        #expect(ProcessSignal.terminate.event == .willTerminate)
        #expect(ProcessSignal.interrupt.event == .willTerminate)
        #expect(ProcessSignal.hangUp.event == .reload)
        #expect(ProcessSignal.user1.event == .userSignal1)
        #expect(ProcessSignal.user2.event == .userSignal2)
        #expect(ProcessSignal.user1.number == SIGUSR1)
    }

    @Test func aSourceStartedAfterAnotherWasCancelledStillHearsTheSignal() async throws {
        for round in 1...2 {
            let (manager, recorder) = makeManager()
            try manager.register(AlphaModule.self)
            try manager.start()
            let source = ProcessEventSource(manager: manager, signals: [.user2], onTermination: { _ in })
            source.start()
            kill(getpid(), SIGUSR2)
            #expect(await eventually { recorder.all.contains("AlphaModule.userSignal2") }, "round \(round)")
            source.cancel()
            #expect(!source.isStarted)
        }
    }
}

/// Records the signal that came with willTerminate, and its tearDown.
final class SignalNoteModule: Module {
    func willTerminate(_ context: ModuleContext) throws {
        let signal = context.customParameter(as: ProcessSignal.self).map(String.init(describing:)) ?? "none"
        context.config[Recorder.key]?.append("SignalNoteModule.\(signal)")
    }

    func tearDown(_ context: ModuleContext) throws {
        context.config[Recorder.key]?.append("SignalNoteModule.tearDown")
    }
}
