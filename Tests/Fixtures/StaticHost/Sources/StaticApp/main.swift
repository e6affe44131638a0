import BeeHive
import BeeHiveObservability
import BeeHiveServiceLifecycle
import Foundation
import InMemoryTracing
import Logging
import ServiceLifecycle
import Tracing

// Built with --static-swift-stdlib on BeeHiveStatic: one Swift runtime, inside this executable. Prints what
// each part of BeeHive did, for StaticBuildTests; the types below are annotated in C (CStaticAnnotations).

protocol Clock: Sendable {
    func now() -> String
}

final class FixedClock: Clock, SimpleServiceImplementation {
    init() {}
    func now() -> String { "noon" }
}

final class LedgerModule: AsyncModule {
    init() {}
    func setUp(_ context: ModuleContext) throws { print("module setUp") }
    func initialize(_ context: ModuleContext) async throws {
        try await Task.sleep(for: .milliseconds(1))
        print("module init, the clock says \(try Hive.shared.services.resolve(Clock.self).now())")
    }
    func willTerminate(_ context: ModuleContext) throws { print("module willTerminate") }
    func tearDown(_ context: ModuleContext) throws { print("module tearDown") }
}

final class LedgerHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool {
        print("route \(parameters["id"] ?? "?")")
        return true
    }
}

final class LedgerTarget: MediatorTarget {
    enum Action: String { case balance }
    init() {}
    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? { "balance 42" }
}

/// The app's own work, once the modules have launched; then it ends the group gracefully.
struct Work: Service {
    let hive: Hive

    func run() async throws {
        // The host starts the modules beside this service; wait for it to begin, then for the launch to end.
        while !hive.modules.isStarted { try await Task.sleep(for: .milliseconds(1)) }
        try await hive.modules.waitForLaunch()
        try hive.open("/ledger/7")
        print("target \(try hive.mediator.perform(target: "Ledger", action: "balance", as: String.self))")
        // Declared by the folder's C plugin: the first use loads it.
        try hive.open("/archive/9")
        print("plugins loaded on first use: \(hive.pluginsLoadedOnFirstUse.count)")
        if let plugin = ProcessInfo.processInfo.environment["STATIC_APP_SWIFT_PLUGIN"] {
            switch Result(catching: { () throws(HiveError) in try hive.loadPlugin(atPath: plugin) }) {
            case .success: print("swift plugin loaded")
            case .failure(.plugin(let error)) where error.kind == .incompatible: print("swift plugin refused: \(error)")
            case .failure(let error): print("swift plugin failed otherwise: \(error)")
            }
        }
    }
}

let tracer = InMemoryTracer()
InstrumentationSystem.bootstrap(tracer)
try HiveObserver.bootstrap(HiveObserver(HiveTelemetry().events))

let logger = Logger(label: "static-app")
let host = HiveHost(logger: logger)
let group = ServiceGroup(
    configuration: ServiceGroupConfiguration(
        services: [
            .init(service: HiveService(host.serve)),
            .init(service: Work(hive: host.hive), successTerminationBehavior: .gracefullyShutdownGroup),
        ],
        gracefulShutdownSignals: [.sigterm], logger: logger))
try await group.run()
let spans = Set(tracer.finishedSpans.map(\.operationName)).sorted()
print("spans: \(spans.joined(separator: ", "))")
