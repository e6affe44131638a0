import BeeHive
import BeeHiveObservability
import InMemoryTracing
import Metrics
import MetricsTestKit
import Testing
import Tracing

/// Bootstrapping tracing, metrics and the observer is once per process: this target holds this one test, which
/// does it the way an app does, so that what it records proves that an app's bootstrap reaches the library.
/// scripts/test runs it in a process of its own, so that the other suites run without an observer.
@Suite struct HiveTelemetryTests {
    @Test func appBootstrapReachesTheLibrary() async throws {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        let metrics = TestMetrics()
        MetricsSystem.bootstrap(metrics)
        try HiveObserver.bootstrap(HiveObserver(HiveTelemetry().events))
        #expect(throws: HiveObserverError.alreadyBootstrapped) {
            try HiveObserver.bootstrap(HiveObserver(HiveTelemetry().events))
        }

        let hive = Hive()
        try hive.modules.register(Storage.self)
        try hive.modules.register(Network.self)
        try hive.modules.start()
        try await hive.modules.waitForLaunch()
        try await hive.modules.terminate()

        // Other suites of the same process may report too once the observer is in place: the spans are told
        // apart by this target's module names, the counts are lower bounds on what this test did.
        let spans = tracer.finishedSpans
        var launchIDs: Set<String> = []
        var shutdownIDs: Set<String> = []
        for module in [Storage.moduleName, Network.moduleName] {
            for hook in ["setUp", "init", "splash"] {
                let span = try #require(spans.first { $0.operationName == "\(module) \(hook)" })
                #expect(span.attributes.get("beehive.module") == .string(module))
                #expect(span.attributes.get("beehive.hook") == .string(hook))
                launchIDs.insert(try #require(span.parentSpanID))
                let timer = try metrics.expectTimer("beehive.hook.duration", [("module", module), ("hook", hook)])
                #expect(timer.values.count == 1)
            }
            for hook in ["willTerminate", "tearDown"] {
                let span = try #require(spans.first { $0.operationName == "\(module) \(hook)" })
                #expect(spans.filter { $0.operationName == "\(module) \(hook)" }.count == 1)
                shutdownIDs.insert(try #require(span.parentSpanID))
            }
        }
        #expect(launchIDs.count == 1)
        let launch = try #require(spans.first { $0.spanID == launchIDs.first })
        #expect(launch.operationName == "BeeHive launch")
        #expect(launch.parentSpanID == nil)
        // willTerminate and tearDown are the children of one shutdown span, as the launch's hooks are of it.
        #expect(shutdownIDs.count == 1)
        let shutdown = try #require(spans.first { $0.spanID == shutdownIDs.first })
        #expect(shutdown.operationName == "BeeHive shutdown")
        #expect(shutdown.parentSpanID == nil)
        #expect(shutdown.status == nil)
        let failed = try #require(spans.first { $0.operationName == "\(Network.moduleName) splash" })
        #expect(failed.status?.code == .error)
        #expect(failed.errors.count == 1)
        #expect(spans.first { $0.operationName == "\(Storage.moduleName) splash" }?.status == nil)

        let lookups = metrics.counterTotal(label: "beehive.service.lookups")
        hive.services.register(Greeting.self, scope: .singleton) { _, _ in Greeting() }
        for _ in 0..<3 { _ = try hive.services.resolve(Greeting.self) }
        #expect(metrics.counterTotal(label: "beehive.service.lookups") - lookups >= 3)

        // A createService that misses the cache is one lookup, not one for the cache and one for resolve: counted
        // twice, these would be 2,000 (the bound leaves room for other suites of the process).
        let misses = metrics.counterTotal(label: "beehive.service.lookups")
        for _ in 0..<1000 { _ = hive.services.createService(NeverRegistered.self) }
        let counted = metrics.counterTotal(label: "beehive.service.lookups") - misses
        #expect(counted >= 1000 && counted < 2000, "\(counted) lookups counted for 1,000 misses")

        let matches = metrics.counterTotal(label: "beehive.route.matches")
        try hive.router.addRoute("/users/:id")
        #expect(try hive.router.route("app://users/7").isHandled)
        #expect(hive.router.match("app://users/8") != nil)
        #expect(try !hive.router.route("app://nowhere").isHandled)
        #expect(metrics.counterTotal(label: "beehive.route.matches") - matches >= 2)

        let loads = metrics.counterTotal(label: "beehive.plugin.loads")
        let library = "/usr/lib/x86_64-linux-gnu/libz.so.1"
        try hive.loadPlugin(atPath: library)
        try hive.loadPlugin(atPath: library)
        #expect(metrics.counterTotal(label: "beehive.plugin.loads") - loads >= 1)
        try hive.unloadPlugin(atPath: library)
        try hive.unloadPlugin(atPath: library)
    }
}

struct NeverRegistered {}

final class Storage: Module {
    init() {}
}

/// Asynchronous, with a splash that fails: its span carries the error.
final class Network: AsyncModule {
    static var dependencies: [ModuleDependency] { [.module(Storage.self)] }
    static var failureBehavior: ModuleFailureBehavior { .reportOnly }

    struct Unreachable: Error {}

    init() {}

    func initialize(_ context: ModuleContext) async throws {
        try await Task.sleep(for: .milliseconds(1))
    }

    func splash(_ context: ModuleContext) async throws {
        throw Unreachable()
    }
}

struct Greeting: Sendable {}
