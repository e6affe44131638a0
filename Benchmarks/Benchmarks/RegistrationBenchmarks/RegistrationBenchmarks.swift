import BenchSupport
import Benchmark
import BeeHive

/// Registering in code (issue 11: ≤ 5 µs per module, service or route). Each iteration registers one thing and
/// removes it again, so the managers stay the same size; every registration is of a type the manager has not
/// printed before, because the first registration of a type is what used to cost (`String(reflecting:)`
/// searched every conformance of the process to print a protocol).
protocol RegisteredService: AnyObject {}
final class RegisteredServiceImpl: RegisteredService, SimpleServiceImplementation { init() {} }

final class RegisteredModule: Module { init() {} }

final class RegisteredHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool { true }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Tolerances.configuration(scalingFactor: .one)

    Benchmark("Register.service@code", configuration: configuration) { benchmark in
        let manager = ServiceManager()
        for _ in benchmark.scaledIterations {
            manager.register(RegisteredService.self, implementation: RegisteredServiceImpl.self)
            manager.unregister(RegisteredService.self)
        }
    }
    Benchmark("Register.module@code", configuration: configuration) { benchmark in
        let manager = ModuleManager()
        for _ in benchmark.scaledIterations {
            try manager.register(RegisteredModule.self)
            try manager.unregister(RegisteredModule.self)
        }
    }
    Benchmark("Register.route@code", configuration: configuration) { benchmark in
        let router = Router()
        for _ in benchmark.scaledIterations {
            let id = try router.addRoute("/registered/:id", handlerType: RegisteredHandler.self)
            _ = router.removeRoute(id)
        }
    }
}
