import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
import Dispatch
import Foundation

/// A one-shot flag that tasks await, with a hang guard: `wait` gives false if it stayed closed for `seconds`.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    var isOpen: Bool { state.withLock { $0.isOpen } }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Ignores cancellation on purpose: a module that does not cooperate is what some tests need.
    func wait(seconds: Double = 600) async -> Bool {
        await withCheckedContinuation { continuation in
            let waiter = state.withLock { state -> Int? in
                if state.isOpen { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                self.state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: false)
            }
        }
    }
}

/// Latches and marks the async modules of one test share through the config store.
final class AsyncProbe: Sendable {
    static let key = ConfigKey<AsyncProbe>("test.asyncProbe")
    let firstEntered = Latch()
    let secondEntered = Latch()
    let release = Latch()
    let slowEntered = Latch()
    let sleeperEntered = Latch()
    private let marks = Locked<[String]>([])
    private let flags = Locked<Set<String>>([])

    func mark(_ mark: String) { marks.withLock { $0.append(mark) } }
    var all: [String] { marks.withLock { $0 } }
    func index(of mark: String) -> Int? { all.firstIndex(of: mark) }

    func raise(_ flag: String) { flags.withLock { _ = $0.insert(flag) } }
    func isRaised(_ flag: String) -> Bool { flags.withLock { $0.contains(flag) } }
}

/// Async modules that record every hook into the test's recorder, like `Recording` does for synchronous ones.
protocol AsyncRecording: AsyncModule {}

extension AsyncRecording {
    static var shortName: String { String(moduleName.split(separator: ".").last ?? "") }

    func record(_ context: ModuleContext) {
        context.config[Recorder.key]?.append("\(Self.shortName).\(context.event)")
    }

    func probe(_ context: ModuleContext) -> AsyncProbe { context.config[AsyncProbe.key]! }

    func setUp(_ context: ModuleContext) async throws { record(context) }
    func initialize(_ context: ModuleContext) async throws { record(context) }
    func splash(_ context: ModuleContext) async throws { record(context) }
    func tearDown(_ context: ModuleContext) async throws { record(context) }
    func willTerminate(_ context: ModuleContext) async throws { record(context) }
    func reload(_ context: ModuleContext) async throws { record(context) }
}

/// Its init waits until the second one's init has begun: both must be under way at once.
final class FirstOverlapModule: AsyncRecording {
    func initialize(_ context: ModuleContext) async throws {
        let probe = probe(context)
        probe.firstEntered.open()
        if await probe.secondEntered.wait(seconds: 60) { probe.raise("first saw second") }
        record(context)
    }
}

final class SecondOverlapModule: AsyncRecording {
    func initialize(_ context: ModuleContext) async throws {
        let probe = probe(context)
        probe.secondEntered.open()
        if await probe.firstEntered.wait(seconds: 60) { probe.raise("second saw first") }
        record(context)
    }
}

/// Suspends in init until the test releases it.
final class SlowAsyncModule: AsyncRecording {
    func initialize(_ context: ModuleContext) async throws {
        let probe = probe(context)
        probe.mark("slow.init.begin")
        probe.slowEntered.open()
        _ = await probe.release.wait()
        try await Task.sleep(for: .milliseconds(20))
        probe.mark("slow.init.end")
        record(context)
    }
}

final class DependsOnSlowModule: AsyncRecording {
    static var dependencies: [ModuleDependency] { [.module(SlowAsyncModule.self)] }

    func initialize(_ context: ModuleContext) async throws {
        probe(context).mark("dependent.init.begin")
        record(context)
    }
}

final class DependsOnSleeperModule: AsyncRecording {
    static var dependencies: [ModuleDependency] { [.module(SleepsUntilCancelledModule.self)] }
}

/// Sleeps in init until cancelled (a cooperative hook); records whether it saw the cancellation.
final class SleepsUntilCancelledModule: AsyncRecording {
    func initialize(_ context: ModuleContext) async throws {
        let probe = probe(context)
        probe.sleeperEntered.open()
        do {
            try await Task.sleep(for: .seconds(600))
        } catch is CancellationError {
            probe.raise("init cancelled")
            throw CancellationError()
        }
        record(context)
    }
}

/// Sleeps in setUp until cancelled; records the setUp once cancelled, as a module that was set up.
final class SetUpUntilCancelledModule: AsyncRecording {
    func setUp(_ context: ModuleContext) async throws {
        probe(context).sleeperEntered.open()
        try? await Task.sleep(for: .seconds(600))
        record(context)
    }
}

/// Ignores cancellation in init: waits for the test's release, at most 600 s.
final class IgnoresCancellationModule: AsyncRecording {
    static var hookTimeLimit: Duration? { .seconds(10) }

    func initialize(_ context: ModuleContext) async throws {
        _ = await probe(context).release.wait()
        record(context)
    }
}

/// Ignores cancellation in setUp: waits for the test's release, at most 600 s.
final class OverrunningSetUpModule: AsyncRecording {
    static var hookTimeLimit: Duration? { .seconds(10) }

    func setUp(_ context: ModuleContext) async throws {
        _ = await probe(context).release.wait()
        record(context)
    }
}

/// Limits are seconds, not milliseconds: its other hooks must stay within them on a loaded machine.
final class OverrunningAsyncModule: AsyncRecording {
    static var hookTimeLimit: Duration? { .seconds(10) }

    func initialize(_ context: ModuleContext) async throws {
        do {
            try await Task.sleep(for: .seconds(600))
        } catch {
            probe(context).raise("overrun cancelled")
            throw error
        }
    }
}

/// Synchronous, and blocks longer than its limit.
final class OverrunningSyncModule: Recording {
    static var hookTimeLimit: Duration? { .milliseconds(500) }

    func initialize(_ context: ModuleContext) throws {
        Thread.sleep(forTimeInterval: 1.5)
        record(context)
    }
}

final class OverrunningTearDownModule: AsyncRecording {
    static var hookTimeLimit: Duration? { .seconds(10) }

    func tearDown(_ context: ModuleContext) async throws {
        record(context)
        try await Task.sleep(for: .seconds(600))
    }
}

/// Fails in init; its failure stops the app whatever the manager's policy.
final class StopsAppModule: AsyncRecording {
    static var failureBehavior: ModuleFailureBehavior { .stopsApp }

    func initialize(_ context: ModuleContext) async throws {
        record(context)
        throw TestError(message: "database unreachable")
    }
}

/// Fails in init; its failure is only reported, even under fail-fast.
final class ReportOnlyModule: AsyncRecording {
    static var failureBehavior: ModuleFailureBehavior { .reportOnly }

    func initialize(_ context: ModuleContext) async throws {
        record(context)
        throw TestError(message: "metrics endpoint unreachable")
    }
}

/// Fails in reload; its failure stops the app.
final class ReloadStopsAppModule: AsyncRecording {
    static var failureBehavior: ModuleFailureBehavior { .stopsApp }

    func reload(_ context: ModuleContext) async throws {
        record(context)
        throw TestError(message: "configuration unreadable")
    }
}

/// Mixes hooks: a synchronous setUp, an asynchronous init.
final class MixedHooksModule: AsyncModule {
    func setUp(_ context: ModuleContext) throws {
        context.config[Recorder.key]?.append("MixedHooksModule.setUp")
    }

    func initialize(_ context: ModuleContext) async throws {
        await Task.yield()
        context.config[Recorder.key]?.append("MixedHooksModule.init")
    }
}

/// Declared a `Module`, made an `AsyncModule` in an extension.
final class AsyncInExtensionModule: Module {}

extension AsyncInExtensionModule: AsyncModule {
    func initialize(_ context: ModuleContext) async throws {
        await Task.yield()
        context.config[Recorder.key]?.append("AsyncInExtensionModule.init")
    }
}

/// A synchronous module's subclass that adds `AsyncModule`: it inherits the superclass's `Module` conformance.
/// (No stored state, so `@unchecked Sendable` holds.)
class SynchronousBaseModule: Module, @unchecked Sendable {
    required init() {}
}

final class AsyncSubclassModule: SynchronousBaseModule, AsyncModule {
    func initialize(_ context: ModuleContext) async throws {
        await Task.yield()
        context.config[Recorder.key]?.append("AsyncSubclassModule.init")
    }
}

/// A task-local value the launching test sets around `start()`.
enum LaunchContext {
    @TaskLocal static var label: String?
}

/// Records the task-local label its setUp sees.
final class TaskLocalReadingModule: Module {
    func setUp(_ context: ModuleContext) throws {
        context.config[Recorder.key]?.append("setUp saw \(LaunchContext.label ?? "nothing")")
    }
}
