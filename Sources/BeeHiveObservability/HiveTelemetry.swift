import Metrics
import Tracing

/// Turns BeeHive's reports into swift-distributed-tracing spans and swift-metrics counters and timers, on the
/// tracer and metrics factory the app bootstrapped:
///
///     InstrumentationSystem.bootstrap(tracer)
///     MetricsSystem.bootstrap(metricsFactory)
///     try HiveObserver.bootstrap(HiveObserver(HiveTelemetry().events))
///
/// - Every hook of every module is a span named after the module and the hook (`"AccountModule init"`),
///   with the attributes `beehive.module` and `beehive.hook`, and the error of a failed hook. A launch is a span
///   (`"BeeHive launch"`), the parent of its modules' setUp, init and splash.
/// - `beehive.service.lookups`, `beehive.route.matches` and `beehive.plugin.loads` count service lookups, URLs
///   that matched a route, and plugins newly loaded; `beehive.hook.duration` times each hook, with the
///   dimensions `module` and `hook`.
///
/// Make it after bootstrapping the metrics system: its counters are made once, here, from the factory in place.
///
/// Why it gives `events` rather than a `HiveObserver`: this library is linked statically into the app, so that
/// it reports to the app's own copy of Tracing and Metrics (a copy inside `libBeeHive.so` would have globals the
/// app never bootstraps). Naming a BeeHive type here would link a second, static copy of BeeHive's core into the
/// app next to `libBeeHive.so`; a tuple of functions has a structural type, the same in every copy.
public struct HiveTelemetry: Sendable {
    /// The same type as `HiveObserver.Events`.
    public typealias Events = (
        spanStarted: @Sendable (_ operation: String, _ module: String?, _ parent: (any Sendable)?) -> any Sendable,
        spanEnded: @Sendable (_ span: any Sendable, _ error: (any Error)?) -> Void,
        serviceLookedUp: @Sendable () -> Void,
        routeMatched: @Sendable () -> Void,
        pluginLoaded: @Sendable () -> Void
    )

    private let lookups = Counter(label: "beehive.service.lookups")
    private let routeMatches = Counter(label: "beehive.route.matches")
    private let pluginLoads = Counter(label: "beehive.plugin.loads")

    public init() {}

    /// What to give `HiveObserver.init(_:)`.
    public var events: Events {
        (
            spanStarted: { operation, module, parent in HookSpan.start(operation, module: module, parent: parent) },
            spanEnded: { span, error in (span as? HookSpan)?.end(error: error) },
            serviceLookedUp: { [lookups] in lookups.increment() },
            routeMatched: { [routeMatches] in routeMatches.increment() },
            pluginLoaded: { [pluginLoads] in pluginLoads.increment() }
        )
    }
}

/// A hook's or a launch's span, with when it started, for the hook's timer.
private final class HookSpan: Sendable {
    let span: any Span
    let module: String?
    let operation: String
    let start: ContinuousClock.Instant

    private init(span: any Span, module: String?, operation: String) {
        self.span = span
        self.module = module
        self.operation = operation
        start = .now
    }

    static func start(_ operation: String, module: String?, parent: (any Sendable)?) -> HookSpan {
        let context = (parent as? HookSpan)?.span.context ?? .current ?? .topLevel
        let span = InstrumentationSystem.tracer.startSpan("\(module ?? "BeeHive") \(operation)", context: context)
        if let module {
            span.attributes["beehive.module"] = module
            span.attributes["beehive.hook"] = operation
        }
        return HookSpan(span: span, module: module, operation: operation)
    }

    func end(error: (any Error)?) {
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
        guard let module else { return }
        let elapsed = (ContinuousClock.now - start).components
        let nanoseconds = elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000
        Timer(label: "beehive.hook.duration", dimensions: [("module", module), ("hook", operation)])
            .recordNanoseconds(nanoseconds)
    }
}
