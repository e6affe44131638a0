import BeeHiveLocks

/// The setUps or the splashes of a launch that includes asynchronous modules: one module at a time, in order,
/// run by a worker task that the launch awaits.
///
/// A hook that overruns its limit is left behind with its worker, which is cancelled; a new worker (the next
/// generation) reports the overrun and goes on with the next module. A worker whose generation is no longer
/// the current one stops as soon as its hook returns.
final class OrderedPhase: Sendable {
    let batch: LaunchBatch
    let event: LifecycleEvent
    /// The stage a module is at before its hook, and the one it reaches after.
    let from: ModuleEntry.Stage
    let to: ModuleEntry.Stage
    let hooks: RunningHooks

    private struct State {
        var generation = 0
        var worker: Task<Void, Never>?
        var continuation: CheckedContinuation<Void, Never>?
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

    /// Resumes `continuation` once the phase is over (now if it is already).
    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let finished = state.withLock { state in
            if !state.isFinished { state.continuation = continuation }
            return state.isFinished
        }
        if finished { continuation.resume() }
    }

    /// Makes `task` the worker of `generation`; cancels it at once when the phase was cancelled.
    func attach(_ task: Task<Void, Never>, generation: Int) {
        let cancel = state.withLock { state in
            if state.generation == generation { state.worker = task }
            return state.isCancelled || state.generation != generation
        }
        if cancel { task.cancel() }
    }

    /// The current worker's hook overran: cancels that worker and returns the generation of the next one.
    func takeOver() -> Int {
        let (generation, worker) = state.withLock { state in
            state.generation += 1
            defer { state.worker = nil }
            return (state.generation, state.worker)
        }
        worker?.cancel()
        return generation
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
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
