import BeeHiveLocks
import BeeHiveObservation
import Synchronization

/// Modules launched together (all of them at `start()`, or those registered together later): splash comes
/// once every one of them has finished init.
final class LaunchBatch: Sendable {
    let entries: [ModuleEntry]
    /// The launch's span, parent of its hooks' spans; nil without an observer.
    let span: ObservedSpan?

    private struct State {
        var unsettled: Int
        var failure: ModuleError?
        /// The task running a launch that includes asynchronous modules.
        var task: Task<Void, Never>?
        var isCancelled = false
        /// The launch task, waiting for the last init.
        var initsWaiter: CheckedContinuation<Void, Never>?
    }

    private let state: Locked<State>
    /// Whether `failure` is set, read without the lock: every init of a launch checks it.
    private let hasFailed = Atomic<Bool>(false)

    init(_ entries: [ModuleEntry]) {
        self.entries = entries
        span = HiveObserver.startSpan("launch", module: nil, parent: nil)
        state = Locked(State(unsettled: entries.count))
    }

    var failure: ModuleError? {
        guard hasFailed.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.failure }
    }

    func recordFailure(_ failure: ModuleError) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
        hasFailed.store(true, ordering: .releasing)
    }

    var task: Task<Void, Never>? { state.withLock { $0.task } }

    /// Keeps the task that runs this launch, cancelling it at once if the launch was cancelled already.
    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            return state.task
        }?.cancel()
    }

    /// Counts one init as finished; true for the last one, which also resumes `initsSettled()`.
    @discardableResult
    func settleOne() -> Bool {
        let (isLast, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            state.unsettled -= 1
            guard state.unsettled == 0 else { return (false, nil) }
            defer { state.initsWaiter = nil }
            return (true, state.initsWaiter)
        }
        waiter?.resume()
        return isLast
    }

    /// Returns once every init is finished or given up.
    func initsSettled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled = state.withLock { state in
                if state.unsettled > 0 { state.initsWaiter = continuation }
                return state.unsettled == 0
            }
            if settled { continuation.resume() }
        }
    }
}

/// Counts down the dependencies a module waits for before its init.
final class DependencyCountdown: Sendable {
    private let state: Locked<(remaining: Int, failed: Bool)>

    init(_ count: Int) {
        state = Locked((count, false))
    }

    /// Counts one dependency as finished; returns whether any failed once the last one is in, nil before.
    func settle(failed: Bool) -> Bool? {
        state.withLock { state in
            state.remaining -= 1
            state.failed = state.failed || failed
            return state.remaining == 0 ? state.failed : nil
        }
    }
}
