import BeeHiveLocks
import Dispatch
import Synchronization

/// The one timer of the process that watches the time limits of launch hooks: it fires at the earliest
/// deadline of every launch phase under way (`RunningHooks`), which take the hooks past it.
///
/// Arming a dispatch timer wakes libdispatch's timer thread, which on a loaded machine cost more than the rest
/// of a launch per module; so it is armed only for a deadline earlier than the one it waits for, and a phase
/// that ends leaves it armed: it fires once for nothing, then sleeps until a phase needs it.
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var phases: [ObjectIdentifier: RunningHooks] = [:]
    }

    /// The deadline the timer is armed for (MonotonicClock nanoseconds), `.max` when it is not.
    let armedFor = Atomic<UInt64>(.max)
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "beehive.modules.time-limit")

    /// Watches the hooks of `phase` until `unwatch(_:)`.
    func watch(_ phase: RunningHooks) {
        state.withLock { $0.phases[ObjectIdentifier(phase)] = phase }
    }

    func unwatch(_ phase: RunningHooks) {
        state.withLock { $0.phases[ObjectIdentifier(phase)] = nil }
    }

    /// Fires at `deadline` unless it fires earlier already.
    func arm(for deadline: UInt64) {
        state.withLock { state in
            guard deadline < armedFor.load(ordering: .sequentiallyConsistent) else { return }
            let timer: any DispatchSourceTimer
            if let existing = state.timer {
                timer = existing
            } else {
                timer = DispatchSource.makeTimerSource(queue: queue)
                timer.setEventHandler { [weak self] in self?.fire() }
                timer.activate()
                state.timer = timer
            }
            armedFor.store(deadline, ordering: .sequentiallyConsistent)
            let now = MonotonicClock.now()
            let wait = deadline > now ? deadline - now : 0
            timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: wait)), leeway: .milliseconds(1))
        }
    }

    /// Lets every phase take its hooks past their deadline, then arms for the earliest deadline left. Disarmed
    /// first, so that a hook that begins meanwhile either is seen here or arms the timer itself.
    private func fire() {
        let phases = state.withLock { state in
            armedFor.store(.max, ordering: .sequentiallyConsistent)
            return Array(state.phases.values)
        }
        let now = MonotonicClock.now()
        var next = UInt64.max
        for phase in phases { next = min(next, phase.expire(now: now)) }
        if next != .max { arm(for: next) }
    }
}
