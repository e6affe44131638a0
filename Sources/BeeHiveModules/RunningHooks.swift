import BeeHiveLocks
import Dispatch

/// The awaited hooks under way in one phase of a launch (its setUps, its inits or its splashes), watched for
/// their time limits by one timer for the whole phase, and the tasks that run them, to cancel.
///
/// A hook is known by its module's index in the launch. Whoever ends a hook first owns its end: the hook
/// returning (`end(_:_:)` says true) or the timer, which cancels the hook's task and hands its call to the
/// overrun handler. A task and a timer per hook would cost more than the lifecycle's budget per module; here a
/// hook costs two short critical sections, and the timer is armed only for the earliest deadline. The timer
/// reads `calls` only for the deadlines that passed, so ending a hook clears its deadline and leaves the call.
final class RunningHooks: Sendable {
    typealias OverrunHandler = @Sendable (_ index: Int, HookCall) -> Void
    private typealias Overrun = (index: Int, call: HookCall, task: Task<Void, Never>?)

    private struct State {
        var calls: [HookCall?]
        /// The deadline of each hook being watched (MonotonicClock nanoseconds), 0 for none.
        var deadlines: [UInt64]
        var tasks: [Task<Void, Never>?]
        var timer: (any DispatchSourceTimer)?
        /// The deadline the timer is armed for (MonotonicClock nanoseconds).
        var armedFor = UInt64.max
        var isCancelled = false
        /// Held until `finish()`: it usually refers to this object, a cycle that the end of the phase breaks.
        var onOverrun: OverrunHandler?
    }

    private let state: Locked<State>
    private static let timers = DispatchQueue(label: "beehive.modules.time-limit")

    init(count: Int) {
        state = Locked(
            State(
                calls: Array(repeating: nil, count: count), deadlines: Array(repeating: 0, count: count),
                tasks: Array(repeating: nil, count: count)))
    }

    /// What to do with a hook that overran (it was cancelled already): report it and go on without it.
    func onOverrun(_ handler: @escaping OverrunHandler) {
        state.withLock { $0.onOverrun = handler }
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Watches the hook of module `index` until its call's deadline; a synchronous call, or one without a
    /// limit, is not watched.
    func begin(_ index: Int, _ call: HookCall) {
        guard let deadline = call.watchedDeadline else { return }
        state.withLock { state in
            state.calls[index] = call
            state.deadlines[index] = deadline
            if deadline < state.armedFor { arm(&state, for: deadline) }
        }
    }

    /// Ends the watch of module `index`'s hook: true when the hook's end is the caller's to report, false
    /// when the timer took it (the hook overran and the launch went on without it).
    func end(_ index: Int, _ call: HookCall) -> Bool {
        guard call.watchedDeadline != nil else { return true }
        return state.withLock { state in
            guard state.deadlines[index] != 0 else { return false }
            state.deadlines[index] = 0
            return true
        }
    }

    /// Keeps the task that runs module `index`'s hook, to cancel on overrun or with the phase; cancels it now
    /// if the phase was cancelled already.
    func attach(_ task: Task<Void, Never>, to index: Int) {
        let cancelled = state.withLock { state in
            state.tasks[index] = task
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Cancels every task of the phase: the launch was cancelled. Cancellation handlers are the modules'
    /// code, so the tasks are cancelled outside the lock.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.isCancelled = true
            return state.tasks
        }
        for task in tasks { task?.cancel() }
    }

    /// Stops the timer: the phase is over, and what still runs of it was left behind.
    func finish() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.armedFor = .max
            state.onOverrun = nil
        }
    }

    private func arm(_ state: inout State, for deadline: UInt64) {
        let timer: any DispatchSourceTimer
        if let existing = state.timer {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: Self.timers)
            timer.setEventHandler { [weak self] in self?.expire() }
            timer.activate()
            state.timer = timer
        }
        state.armedFor = deadline
        let now = MonotonicClock.now()
        let wait = deadline > now ? deadline - now : 0
        timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: wait)), leeway: .milliseconds(1))
    }

    /// Takes every hook past its deadline, cancels its task and reports it; arms the timer for the next one.
    private func expire() {
        let now = MonotonicClock.now()
        let (overrun, handler) = state.withLock { state -> ([Overrun], OverrunHandler?) in
            var overrun: [Overrun] = []
            var next = UInt64.max
            for index in state.deadlines.indices {
                let deadline = state.deadlines[index]
                guard deadline != 0 else { continue }
                if deadline <= now, let call = state.calls[index] {
                    state.deadlines[index] = 0
                    overrun.append((index, call, state.tasks[index]))
                } else {
                    next = min(next, deadline)
                }
            }
            state.armedFor = .max
            if next != .max { arm(&state, for: next) }
            return (overrun, state.onOverrun)
        }
        for (index, call, task) in overrun {
            task?.cancel()
            handler?(index, call)
        }
    }
}
