import BenchSupport
import Benchmark
import BeeHive
import Synchronization

/// Registering in code (issue 11: ≤ 5 µs per module, service or route). Each iteration registers one thing and
/// removes it again, so the managers stay the same size, and each registers a type the process has not
/// registered before (RegisteredTypes.swift, from scripts/generate-registration-types): the runtime's and the
/// managers' caches cannot hide what a first registration costs (`String(reflecting:)` used to search every
/// conformance of the process to print a protocol). No warm-up, and no more iterations than types. The managers
/// are made once, outside the measured closure: the framework calls it once per iteration here, and making a
/// manager (its logger, its environment reading) is not what registering costs.
let benchmarks: @Sendable () -> Void = {
    func configuration(types: Int) -> Benchmark.Configuration {
        var configuration = Tolerances.configuration(scalingFactor: .one)
        configuration.warmupIterations = 0
        configuration.maxIterations = types
        return configuration
    }

    let nextService = NextEntry(of: serviceRegistrations.count)
    let services = ServiceManager()
    Benchmark("Register.service@code", configuration: configuration(types: serviceRegistrations.count)) { benchmark in
        let manager = services
        for _ in benchmark.scaledIterations {
            serviceRegistrations[nextService.take()](manager)
        }
    }
    let nextModule = NextEntry(of: moduleRegistrations.count)
    let modules = ModuleManager()
    Benchmark("Register.module@code", configuration: configuration(types: moduleRegistrations.count)) { benchmark in
        let manager = modules
        for _ in benchmark.scaledIterations {
            try moduleRegistrations[nextModule.take()](manager)
        }
    }
    let nextRoute = NextEntry(of: routeRegistrations.count)
    let routes = Router()
    Benchmark("Register.route@code", configuration: configuration(types: routeRegistrations.count)) { benchmark in
        let router = routes
        for _ in benchmark.scaledIterations {
            try routeRegistrations[nextRoute.take()](router)
        }
    }
}

/// Hands out the indices of a registration list in turn, one per iteration, across the benchmark's calls.
final class NextEntry: Sendable {
    private let count: Int
    private let next = Mutex(0)

    init(of count: Int) {
        self.count = count
    }

    func take() -> Int {
        next.withLock { next in
            defer { next += 1 }
            return next % count
        }
    }
}
