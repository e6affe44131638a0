import Synchronization

/// Where BeeHive reports what it does, for tracing and metrics: every module hook as a span (a launch is the
/// parent of its hooks), every service lookup, route match and plugin load as a count. Nothing is reported
/// until the app bootstraps an observer, and until then a report costs a call, one atomic load and a branch.
///
/// The `BeeHiveObservability` product makes the observer that turns these reports into swift-distributed-tracing
/// spans and swift-metrics counters and timers on the app's own tracer and metrics factory:
///
///     InstrumentationSystem.bootstrap(tracer)
///     MetricsSystem.bootstrap(metricsFactory)
///     try HiveObserver.bootstrap(HiveObserver(HiveTelemetry().events))
///
/// `Events` is a tuple of functions, a structural type that is the same in every module, so that
/// `HiveTelemetry` (linked statically into the app) can make it without naming a type of the dynamic core.
public struct HiveObserver: Sendable {
    /// - `spanStarted`: an operation begins: a hook of a module (`operation` is the hook, such as `"init"`,
    ///   `module` its module's name) or a launch (`"launch"`, no module). `parent` is the span it runs in, as
    ///   returned earlier. Returns the span, which the observer gets back when the operation ends.
    /// - `spanEnded`: the operation ended, with the error of a failed or overrunning hook.
    /// - `serviceLookedUp`, `routeMatched`, `pluginLoaded`: one lookup (cached or not), one URL that matched a
    ///   route, one plugin newly loaded.
    public typealias Events = (
        spanStarted: @Sendable (_ operation: String, _ module: String?, _ parent: (any Sendable)?) -> any Sendable,
        spanEnded: @Sendable (_ span: any Sendable, _ error: (any Error)?) -> Void,
        serviceLookedUp: @Sendable () -> Void,
        routeMatched: @Sendable () -> Void,
        pluginLoaded: @Sendable () -> Void
    )

    public let events: Events

    public init(_ events: Events) {
        self.events = events
    }

    /// Makes `observer` the one every hive, manager and router of this process reports to. Call it once, at
    /// startup; reports made before it are not replayed.
    /// - Throws: `HiveObserverError.alreadyBootstrapped` when an observer is already in place: it stays.
    public static func bootstrap(_ observer: HiveObserver) throws(HiveObserverError) {
        let box = Unmanaged.passRetained(Installed(observer))
        let address = UInt(bitPattern: box.toOpaque())
        // Never released: reports read the observer without retaining it, so it must outlive them all.
        guard installed.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged
        else {
            box.release()
            throw .alreadyBootstrapped
        }
    }

    /// The observer's address, or 0 before `bootstrap(_:)`.
    private static let installed = Atomic<UInt>(0)

    private final class Installed: Sendable {
        let observer: HiveObserver
        init(_ observer: HiveObserver) { self.observer = observer }
    }

    /// Runs `report` with the bootstrapped observer; does nothing (one load, one branch) without one.
    @inline(__always)
    private static func withObserver<Result>(_ report: (HiveObserver) -> Result) -> Result? {
        let address = installed.load(ordering: .acquiring)
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return Unmanaged<Installed>.fromOpaque(pointer)._withUnsafeGuaranteedRef { report($0.observer) }
    }

    package static var isBootstrapped: Bool { installed.load(ordering: .relaxed) != 0 }

    package static func serviceLookedUp() {
        withObserver { $0.events.serviceLookedUp() }
    }

    package static func routeMatched() {
        withObserver { $0.events.routeMatched() }
    }

    package static func pluginLoaded() {
        withObserver { $0.events.pluginLoaded() }
    }

    /// Starts a span for `operation` (of `module`, within `parent`); nil without an observer.
    package static func startSpan(_ operation: String, module: String?, parent: ObservedSpan?) -> ObservedSpan? {
        withObserver { observer in
            ObservedSpan(observer: observer, token: observer.events.spanStarted(operation, module, parent?.token))
        }
    }
}

/// A span the observer started, to end with the observer that started it.
package struct ObservedSpan: Sendable {
    let observer: HiveObserver
    let token: any Sendable

    package func end(error: (any Error)? = nil) {
        observer.events.spanEnded(token, error)
    }
}
