import BenchSupport
import Benchmark
import Foundation

/// Whole-process start, with discovery on and with `BEEHIVE_DISCOVERY=0`; each iteration is one process,
/// started and waited for:
/// - the demo, Examples/ShopApp, when `BEEHIVE_BENCH_DEMO` names its release executable (scripts/bench builds
///   it): `--list` (discovery and the registry listed, nothing started) and `--open shop://home` (the whole
///   launch, with the Reviews plugin and Catalog's 300 ms asynchronous init);
/// - a stand-in app that links the dynamic BeeHive library, carries 18 annotations (6 modules, 6 services, 6
///   routes naming real types), starts a `HiveHost`, uses a route and a service and exits;
/// - `/bin/true`: the cost of starting any process here.
///
/// The stand-in is built by `swift build -c release --product StartupProbe` (scripts/bench does it): a
/// benchmark cannot build another product of its own package while the benchmark plugin runs.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        maxDuration: .seconds(4),
        maxIterations: 400,
        thresholds: [.wallClock: Tolerances.wallClock]
    )
    let probe = ChildProcess.sibling(named: "StartupProbe")

    func startup(_ name: String, _ process: ChildProcess) {
        Benchmark("Start.\(name)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(process.run())
            }
        } setup: {
            guard FileManager.default.isExecutableFile(atPath: process.path) else {
                fatalError("\(process.path) is missing: run `swift build -c release --product StartupProbe` in Benchmarks/")
            }
            let status = process.run()
            precondition(status == 0, "\(process.path) \(process.arguments) exited with status \(status)")
        }
    }

    startup("true-command", ChildProcess(path: "/bin/true"))
    startup("stand-in-discovery-on", ChildProcess(path: probe, environment: ["BEEHIVE_DISCOVERY": "1"]))
    startup("stand-in-discovery-off", ChildProcess(path: probe, environment: ["BEEHIVE_DISCOVERY": "0"]))
    if let demo = ProcessInfo.processInfo.environment["BEEHIVE_BENCH_DEMO"], !demo.isEmpty {
        for (mode, arguments) in [("list", ["--list"]), ("open-home", ["--open", "shop://home"])] {
            for (state, value) in [("on", "1"), ("off", "0")] {
                startup(
                    "ShopApp-\(mode)-discovery-\(state)",
                    ChildProcess(path: demo, arguments: arguments, environment: ["BEEHIVE_DISCOVERY": value]))
            }
        }
    }
}
