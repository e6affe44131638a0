import BeeHiveLocks

/// The setUps or the splashes of a launch that includes asynchronous modules: one module at a time, in order,
/// run by a worker task that the launch awaits.
///
/// A hook that overruns its limit is left behind with its worker, which is cancelled; a new worker (the next
/// generation) reports the overrun and goes on with the next module. A worker whose generation is no longer
/// the current one stops as soon as its hook returns. The launch's task starts every worker (see `next()`), so
/// each inherits the launch's task-local values: test overrides and the trace context.
final class OrderedPhase: Sendable {
    let batch: LaunchBatch
    let event: LifecycleEvent
    /// The stage a module is at before its hook, and the one it reaches after.
    let from: ModuleEntry.Stage
    let to: ModuleEntry.Stage
    let hooks: RunningHooks

    /// What the launch does next: a worker takes over from a hook that overran, or the phase is over.
    enum Next {
        case takeOver(generation: Int, index: Int, overran: HookCall?)
        case finished
    }

    private struct State {
        var generation = 0
        var worker: Task<Void, Never>?
        /// The launch waiting in `next()`, or what it will find there when it comes.
        var continuation: CheckedContinuation<Next, Never>?
        var pending: Next?
        var isFinished = false
        var isCancelled = false
    }

    private let state = Locked(State())

    init(_ event: LifecycleEvent, of batch: LaunchBatch, from: ModuleEntry.Stage, to: ModuleEntry.Stage) {
        self.batch = batch
        self.event = event
        self.from = from
        self.to = to
        hooks = RunningHooks(count: batch.entries.count)
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Waits until a worker must take over or the phase is over. At most one event is ever pending: no new
    /// worker runs, so no hook can overrun, until the launch has read the last takeover.
    func next() async -> Next {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Next? in
                guard let pending = state.pending else {
                    state.continuation = continuation
                    return nil
                }
                state.pending = nil
                return pending
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Hands `event` to the launch; the continuation it returns is resumed outside the lock.
    private static func deliver(_ event: Next, in state: inout State) -> CheckedContinuation<Next, Never>? {
        guard let continuation = state.continuation else {
            state.pending = event
            return nil
        }
        state.continuation = nil
        return continuation
    }

    /// Makes `task` the worker of `generation`; cancels it at once when the phase was cancelled.
    func attach(_ task: Task<Void, Never>, generation: Int) {
        let cancel = state.withLock { state in
            if state.generation == generation { state.worker = task }
            return state.isCancelled || state.generation != generation
        }
        if cancel { task.cancel() }
    }

    /// The current worker's hook, the one of module `index`, overran: cancels that worker and asks the launch
    /// for the next one.
    func takeOver(at index: Int, overran call: HookCall) {
        let (worker, launch, event) = state.withLock { state in
            state.generation += 1
            defer { state.worker = nil }
            let event = Next.takeOver(generation: state.generation, index: index, overran: call)
            return (state.worker, Self.deliver(event, in: &state), event)
        }
        worker?.cancel()
        launch?.resume(returning: event)
    }

    /// The launch was cancelled: so is the worker, and the next module's hook does not run.
    func cancel() {
        state.withLock { state in
            state.isCancelled = true
            return state.worker
        }?.cancel()
    }

    /// Ends the phase, if `generation` is still the current worker's.
    func finish(generation: Int) {
        let launch = state.withLock { state -> CheckedContinuation<Next, Never>? in
            guard state.generation == generation, !state.isFinished else { return nil }
            state.isFinished = true
            return Self.deliver(.finished, in: &state)
        }
        launch?.resume(returning: .finished)
    }
}
