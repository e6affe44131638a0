import BeeHiveLocks
import Dispatch
import Synchronization

/// The awaited hooks under way in one phase of a launch (its setUps, its inits or its splashes), watched for
/// their time limits by the process's `DeadlineTimer`, and the tasks that run them, to cancel.
///
/// A hook is known by its module's index in the launch. Whoever ends a hook first owns its end: the hook
/// returning (`end(_:_:)` says true) or the timer, which cancels the hook's task and hands its call to the
/// overrun handler. A task and a timer per hook would cost more than the lifecycle's budget per module, and
/// so would a lock that every init of a launch takes: a hook's deadline is one atomic word that the hook and
/// the timer race to clear, and the lock is taken only to keep a task and to cancel them all.
final class RunningHooks: @unchecked Sendable {
    typealias OverrunHandler = @Sendable (_ index: Int, HookCall) -> Void
    private typealias Overrun = (index: Int, call: HookCall, task: Task<Void, Never>?)

    private struct State {
        var tasks: [Task<Void, Never>?]
        /// Held until `finish()`: it usually refers to this object, a cycle that the end of the phase breaks.
        var onOverrun: OverrunHandler?
    }

    private let count: Int
    /// The deadline of each watched hook (MonotonicClock nanoseconds), 0 for none. Its hook's call is written
    /// before the deadline is published and read by the timer only after it saw it.
    private let deadlines: UnsafeMutablePointer<Atomic<UInt64>>
    private let calls: UnsafeMutablePointer<HookCall?>
    private let cancelled = Atomic<Bool>(false)
    private let state: Locked<State>
    private let timer = DeadlineTimer.shared

    init(count: Int) {
        self.count = count
        deadlines = .allocate(capacity: count)
        calls = .allocate(capacity: count)
        for index in 0..<count {
            (deadlines + index).initialize(to: Atomic(0))
            (calls + index).initialize(to: nil)
        }
        state = Locked(State(tasks: Array(repeating: nil, count: count)))
        timer.watch(self)
    }

    deinit {
        deadlines.deinitialize(count: count)
        deadlines.deallocate()
        calls.deinitialize(count: count)
        calls.deallocate()
    }

    /// What to do with a hook that overran (it was cancelled already): report it and go on without it.
    func onOverrun(_ handler: @escaping OverrunHandler) {
        state.withLock { $0.onOverrun = handler }
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Watches the hook of module `index` until its call's deadline; a synchronous call, or one without a
    /// limit, is not watched. Each module's hook begins at most once per phase.
    func begin(_ index: Int, _ call: HookCall) {
        guard let deadline = call.watchedDeadline else { return }
        calls[index] = call
        // Sequentially consistent with `DeadlineTimer.fire()`, which disarms then reads the deadlines: either it
        // sees this deadline, or this sees the timer disarmed and arms it.
        deadlines[index].store(max(deadline, 1), ordering: .sequentiallyConsistent)
        if deadline < timer.armedFor.load(ordering: .sequentiallyConsistent) { timer.arm(for: deadline) }
    }

    /// Ends the watch of module `index`'s hook: true when the hook's end is the caller's to report, false
    /// when the timer took it (the hook overran and the launch went on without it).
    func end(_ index: Int, _ call: HookCall) -> Bool {
        guard call.watchedDeadline != nil else { return true }
        return deadlines[index].exchange(0, ordering: .acquiringAndReleasing) != 0
    }

    /// Keeps the task that runs module `index`'s hook, to cancel on overrun or with the phase; cancels it now
    /// if the phase was cancelled already.
    func attach(_ task: Task<Void, Never>, to index: Int) {
        let cancelled = state.withLock { state in
            state.tasks[index] = task
            return isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Cancels every task of the phase: the launch was cancelled. Cancellation handlers are the modules'
    /// code, so the tasks are cancelled outside the lock.
    func cancelAll() {
        let tasks = state.withLock { state in
            cancelled.store(true, ordering: .releasing)
            return state.tasks
        }
        for task in tasks { task?.cancel() }
    }

    /// Ends the watch: the phase is over, and what still runs of it was left behind.
    func finish() {
        timer.unwatch(self)
        state.withLock { $0.onOverrun = nil }
    }

    /// Takes every hook past its deadline at `now`, cancels its task and reports it; returns the earliest
    /// deadline left (`.max` for none). Called by the timer.
    func expire(now: UInt64) -> UInt64 {
        var overrun: [Overrun] = []
        var next = UInt64.max
        let handler = state.withLock { state -> OverrunHandler? in
            for index in 0..<count {
                let deadline = deadlines[index].load(ordering: .sequentiallyConsistent)
                guard deadline != 0 else { continue }
                if deadline > now {
                    next = min(next, deadline)
                } else if deadlines[index].compareExchange(
                    expected: deadline, desired: 0, ordering: .acquiringAndReleasing
                ).exchanged, let call = calls[index] {
                    overrun.append((index, call, state.tasks[index]))
                }
            }
            return state.onOverrun
        }
        for (index, call, task) in overrun {
            task?.cancel()
            handler?(index, call)
        }
        return next
    }
}
