import BeeHiveObservation

/// One hook of one module under way, as `ModuleManager.beginHook` started it: what ending it reports (the
/// span, the profiler sample, the watchdog slot) and when its time limit passes.
struct HookCall: Sendable {
    let event: ModuleEvent
    let entry: ModuleEntry
    let context: ModuleContext
    let limit: Duration?
    /// MonotonicClock nanoseconds.
    let start: UInt64
    let span: ObservedSpan?
    let slot: WatchdogSlot?

    /// When its limit passes (MonotonicClock nanoseconds); nil without a limit.
    var deadline: UInt64? {
        limit.map { start &+ $0.nanoseconds }
    }

    /// Whether the hook is awaited rather than called on the spot: only an awaited hook can be left behind
    /// when it overruns; a synchronous one is checked when it returns.
    var isAwaited: Bool {
        entry.asyncModule != nil || entry.descriptor.isAsync
    }

    /// The deadline of an awaited hook, which a timer watches; nil when there is nothing to watch.
    var watchedDeadline: UInt64? {
        isAwaited ? deadline : nil
    }
}
