import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Dispatch
import Synchronization

/// Reports a hook that blocks longer than a threshold, while it still blocks (BeeHive's `BHWatchDog`).
///
/// A dispatch marks which module it is calling in one atomic word: two relaxed stores per module, no clock
/// read and no allocation. A timer on its own queue looks at the words of running dispatches; a word that
/// has not changed for a whole threshold is a hook that has blocked at least that long. The timer runs only
/// while dispatches are under way.
public final class Watchdog: Sendable {
    package let threshold: Duration
    /// How many reports `reports` keeps, the newest.
    package let reportLimit: Int

    private struct Watched {
        let slot: WatchdogSlot
        var lastValue: UInt64
        var since: UInt64
        var reported: Bool
    }

    /// The timer lives inside the lock: dispatch sources are not Sendable, and resume/suspend must pair up.
    private struct State {
        let timer: any DispatchSourceTimer
        var watched: [ObjectIdentifier: Watched] = [:]
        var reports: BoundedHistory<WatchdogReport>
        var timerRunning = false
    }

    private let state: Locked<State>
    private let onReport: @Sendable (WatchdogReport) -> Void

    init(threshold: Duration, reportLimit: Int, onReport: @escaping @Sendable (WatchdogReport) -> Void) {
        self.threshold = threshold
        self.reportLimit = max(0, reportLimit)
        self.onReport = onReport
        let interval = max(threshold.nanoseconds / 4, 1_000_000)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "beehive.modules.watchdog"))
        timer.schedule(
            deadline: .now() + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)),
            leeway: .nanoseconds(Int(interval / 4)))
        state = Locked(State(timer: timer, reports: BoundedHistory(limit: reportLimit)))
        state.withLock { state in state.timer.setEventHandler { [weak self] in self?.check() } }
    }

    deinit {
        state.withLock { state in
            // libdispatch refuses to release a suspended or never-activated source.
            if !state.timerRunning { state.timer.resume() }
            state.timer.cancel()
        }
    }

    /// The reports so far, in the order found: the newest `reportLimit`.
    public var reports: [WatchdogReport] {
        state.withLock { $0.reports.entries }
    }

    /// How many reports `reports` no longer holds because of its limit.
    public var droppedReports: Int {
        state.withLock { $0.reports.dropped }
    }

    func begin(_ event: ModuleEvent, names: [String]) -> WatchdogSlot {
        let slot = WatchdogSlot(event: event, names: names)
        state.withLock { state in
            state.watched[ObjectIdentifier(slot)] = Watched(slot: slot, lastValue: 0, since: 0, reported: false)
            if !state.timerRunning {
                state.timer.resume()
                state.timerRunning = true
            }
        }
        return slot
    }

    func end(_ slot: WatchdogSlot) {
        state.withLock { state in
            state.watched[ObjectIdentifier(slot)] = nil
        }
    }

    /// Looks at every running dispatch; suspends the timer when there is none, so that back-to-back
    /// dispatches do not pay for resuming it each time and an idle process does not wake up.
    private func check() {
        let now = MonotonicClock.now()
        let limit = threshold.nanoseconds
        let found = state.withLock { state -> [WatchdogReport] in
            if state.watched.isEmpty && state.timerRunning {
                state.timer.suspend()
                state.timerRunning = false
                return []
            }
            var found: [WatchdogReport] = []
            for (key, var watched) in state.watched {
                let value = watched.slot.value
                guard value & 1 == 1 else { continue }
                if value != watched.lastValue {
                    watched = Watched(slot: watched.slot, lastValue: value, since: now, reported: false)
                } else if !watched.reported && now - watched.since >= limit {
                    watched.reported = true
                    let index = Int(value >> 1)
                    let module = index < watched.slot.names.count ? watched.slot.names[index] : "?"
                    found.append(
                        WatchdogReport(
                            module: module, event: watched.slot.event, threshold: threshold,
                            blockedFor: .nanoseconds(Int64(now - watched.since))))
                }
                state.watched[key] = watched
            }
            state.reports.append(contentsOf: found)
            return found
        }
        for report in found { onReport(report) }
    }
}

/// What one dispatch is calling: `index << 1 | 1` inside the hook of the module at `index`, even outside.
final class WatchdogSlot: Sendable {
    let event: ModuleEvent
    let names: [String]
    private let word = Atomic<UInt64>(0)

    init(event: ModuleEvent, names: [String]) {
        self.event = event
        self.names = names
    }

    var value: UInt64 { word.load(ordering: .relaxed) }

    @inline(__always)
    func enter(_ index: Int) {
        word.store(UInt64(index) << 1 | 1, ordering: .relaxed)
    }

    @inline(__always)
    func leave(_ index: Int) {
        word.store(UInt64(index) << 1, ordering: .relaxed)
    }
}
