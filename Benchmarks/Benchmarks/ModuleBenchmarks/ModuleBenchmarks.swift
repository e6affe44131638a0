import BenchSupport
import Benchmark
import BeeHive

/// One event delivered to 10 to 10,000 started modules: a custom event to a handler per module
/// (`trigger(_:customParameter:)`), and a system event (`reload`) to a hook per module. Each hook or handler
/// only bumps a counter. The reference is a naive dispatcher: a loop over an array of closures, each holding its counter.
let benchmarks: @Sendable () -> Void = {
    // Issue 16: 200 modules whose async init awaits 10 ms launch together (start to the last splash), and
    // 200 asynchronous modules whose hooks return at once, whose time per module is the lifecycle's own cost
    // (setUp, init and splash, each under the default 30 s time limit; and, for comparison, without limits).
    let launches: [(series: String, sleeps: Bool, timeLimit: Duration?)] = [
        ("async-init-sleeps-10ms", true, .seconds(30)), ("async-init-returns", false, .seconds(30)),
        ("async-init-returns-no-time-limit", false, nil),
    ]
    for (series, sleeps, timeLimit) in launches {
        Benchmark(
            "Launch.\(series)@200",
            configuration: Tolerances.configuration(maxDuration: .seconds(2), allocationsGrowWithInput: true)
        ) { benchmark in
            // One launch per run; registering the modules is not timed.
            let manager = ModuleManager(
                configuration: ModuleManager.Configuration(launchTimeLimit: timeLimit),
                config: ConfigStore([initSleepKey.name: Duration.milliseconds(10)]))
            for index in 0..<200 { try manager.register(makeAsyncModule(index, sleeps: sleeps)) }
            benchmark.startMeasurement()
            try manager.start()
            try await manager.waitForLaunch()
            benchmark.stopMeasurement()
            precondition(manager.diagnostics.isEmpty, "a module failed: \(manager.diagnostics)")
        }
    }

    for count in [10, 100, 1_000, 10_000] {
        // Small dispatches are timed 1,000 at a time, so that the clock's own cost does not count.
        let configuration = Tolerances.configuration(scalingFactor: count <= 100 ? .kilo : .one)
        let fixture = ModuleFixture(count: count)

        Benchmark("Dispatch.BeeHive-custom-event@\(count)", configuration: configuration) {
            benchmark in
            let (manager, event) = (fixture.manager, fixture.event)
            for _ in benchmark.scaledIterations {
                try manager.trigger(event, customParameter: count)
            }
        } setup: {
            try fixture.start()
        }
        Benchmark("Dispatch.BeeHive-system-event@\(count)", configuration: configuration) {
            benchmark in
            let manager = fixture.manager
            for _ in benchmark.scaledIterations {
                try manager.trigger(.reload)
            }
        } setup: {
            try fixture.start()
        }
        Benchmark("Dispatch.closure-array@\(count)", configuration: configuration) { benchmark in
            let closures = fixture.closures
            for _ in benchmark.scaledIterations {
                for closure in closures { closure() }
            }
        } setup: {
            fixture.makeClosures()
        }
    }
}

/// The modules of one benchmark, made and started in its setup (each benchmark runs in its own process).
final class ModuleFixture {
    let count: Int
    let manager = ModuleManager()
    let event: CustomEvent
    private(set) var counters: [HitCounter] = []
    private(set) var closures: [() -> Void] = []

    init(count: Int) {
        self.count = count
        event = try! CustomEvent(1_000)
    }

    func start() throws {
        for index in 0..<count {
            let (module, counter) = makeModule(index)
            try manager.register(module)
            try manager.addHandler(for: event, module: module) { _ in counter.touch() }
            counters.append(counter)
        }
        try manager.start()
        try manager.trigger(event, customParameter: 0)
        try manager.trigger(.reload)
        precondition(counters.allSatisfy { $0.count == 2 }, "a module missed an event")
    }

    func makeClosures() {
        counters = (0..<count).map { _ in HitCounter() }
        closures = counters.map { counter in { counter.touch() } }
    }
}
