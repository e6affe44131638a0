@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Logging
import Testing

/// The hives the hub tests' modules call back into, by test.
let hubHives = Locked<[String: Hive]>([:])

func hubHive(_ test: String) -> Hive? { hubHives.withLock { $0[test] } }

/// Modules whose hooks call back into their test's hive.
final class HubRefreshingModule: HiveRecordingModule, @unchecked Sendable {
    override class var tag: String { "hub-refresh.first" }
    override func setUp(_ context: ModuleContext) throws {
        hiveEvents.add("\(Self.tag).setUp")
        hiveEvents.add("hub-refresh.nested \(hubHive("refresh")?.refresh().count ?? -1)")
    }
}

final class HubLateModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-refresh.late" } }

protocol HubOrderService: Sendable { func name() -> String }

final class HubOrderServiceImpl: HubOrderService, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
    func name() -> String { "order service" }
}

final class HubOrderHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool { true }
}

final class HubOrderTarget: MediatorTarget {
    enum Action: String { case ping }
    init() {}
    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? { "pong" }
}

/// Checks, in setUp and tearDown, that everything its own object declares is registered.
final class HubOrderModule: Module, @unchecked Sendable {
    init() {}

    private func look(_ hook: String) {
        guard let hive = hubHive("order") else { return }
        let service = (try? hive.services.resolve((any HubOrderService).self).name()) ?? "missing"
        hiveEvents.add(
            "hub-order.\(hook) \(service), route \(hive.router.canRoute("/order/1")), target \(hive.mediator.canPerform(target: "order", action: "ping"))")
    }

    func setUp(_ context: ModuleContext) throws { look("setUp") }
    func tearDown(_ context: ModuleContext) throws { look("tearDown") }
}

final class HubProviderModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "hub-wait.provider" } }

final class HubDependentModule: Module, @unchecked Sendable {
    static var dependencies: [ModuleDependency] { [.module(HubProviderModule.self)] }
    init() {}
    func setUp(_ context: ModuleContext) throws { hiveEvents.add("hub-wait.dependent.setUp") }
}

@Suite(.timeLimit(.minutes(10))) struct HubTests {
    /// A setUp that refreshes the hive, which brings another object: no deadlock, and the other object's
    /// module is set up after the first one's launch.
    @Test func aHookThatRefreshesIsDeliveredAfterIt() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        hubHives.withLock { $0["refresh"] = hive }
        try await HiveHost(hive: hive).start()
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/plugins/libFirst.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HubRefreshingModule",
        ])))
        source.enqueue(.loaded(ScriptedSource.object(2, "/app/plugins/libLate.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HubLateModule",
        ])))
        #expect(hive.refresh().isEmpty)
        try await hive.modules.waitForLaunch()
        #expect(hiveEvents.entries(withPrefix: "hub-refresh.") == [
            "first.setUp", "nested 0", "first.init", "first.splash", "late.setUp", "late.init", "late.splash",
        ])
        #expect(hive.modules.modules.count == 2)
    }

    /// Calls from other threads while a delivery runs all end up delivered, each object once.
    @Test func refreshesFromManyThreadsDeliverEveryObjectOnce() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        for id in 1...50 {
            source.enqueue(.loaded(ScriptedSource.object(UInt64(id), "/app/lib/lib\(id).so", [
                "beehive:1|route|/threads/\(id)|BeeHiveIntegrationTests.HubOrderHandler",
            ])))
        }
        DispatchQueue.concurrentPerform(iterations: 60) { _ in hive.refresh() }
        #expect(hive.router.routes().count == 50)
        #expect(hive.diagnostics.isEmpty)
    }

    /// Services, routes and targets are there for setUp, and still there for tearDown.
    @Test func modulesComeLastAndLeaveFirst() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        hubHives.withLock { $0["order"] = hive }
        try await HiveHost(hive: hive).start()
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/plugins/libOrder.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HubOrderModule",
            "beehive:1|service|BeeHiveIntegrationTests.HubOrderService|BeeHiveIntegrationTests.HubOrderServiceImpl",
            "beehive:1|route|/order/:id|BeeHiveIntegrationTests.HubOrderHandler",
            "beehive:1|target|order|BeeHiveIntegrationTests.HubOrderTarget",
        ])))
        #expect(hive.refresh().isEmpty)
        hive.registry.retireObjects(atPath: "/app/plugins/libOrder.so")
        #expect(hive.refresh().isEmpty)
        #expect(hiveEvents.entries(withPrefix: "hub-order.") == [
            "setUp order service, route true, target true", "tearDown order service, route true, target true",
        ])
        #expect(!hive.router.canRoute("/order/1"))
        #expect(!hive.services.canCreateService((any HubOrderService).self))
        #expect(hive.mediator.targetNames.isEmpty)
    }

    /// A module that arrives before its dependency waits, with a diagnostic, and is registered when a later
    /// object brings the dependency.
    @Test func aModuleWaitsForItsDependency() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        try await HiveHost(hive: hive).start()
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/plugins/libDependent.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HubDependentModule",
        ])))
        let waiting = hive.refresh()
        #expect(waiting.count == 1)
        #expect(waiting.first.map { !$0.isError && "\($0)".contains("HubProviderModule") && "\($0)".contains("libDependent.so") } == true)
        #expect(hive.modules.modules.isEmpty)
        #expect(hive.refresh().isEmpty)

        source.enqueue(.loaded(ScriptedSource.object(2, "/app/plugins/libProvider.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HubProviderModule",
        ])))
        #expect(hive.refresh().isEmpty)
        try await hive.modules.waitForLaunch()
        #expect(hive.modules.modules.map(\.name) == [
            "BeeHiveIntegrationTests.HubProviderModule", "BeeHiveIntegrationTests.HubDependentModule",
        ])
        #expect(hiveEvents.entries(withPrefix: "hub-wait.").filter { $0.hasSuffix("setUp") } == [
            "provider.setUp", "dependent.setUp",
        ])
    }

    /// Objects with bad records coming and going: the hive keeps the latest diagnostics up to its limit and
    /// counts the others.
    @Test func diagnosticsAreBounded() {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source), diagnosticLimit: 5)
        for id in 1...20 {
            source.enqueue(.loaded(ScriptedSource.object(UInt64(id), "/app/lib/libBad.so", [
                "beehive:1|module|BeeHiveIntegrationTests.NoSuchModule\(id)",
            ])))
            source.enqueue(.unloaded(LoadedObject(id: UInt64(id), path: "/app/lib/libBad.so", buildID: nil, baseAddress: 0)))
            #expect(hive.refresh().count == 1)
            hive.refresh()
        }
        #expect(hive.diagnostics.count == 5)
        #expect(hive.droppedDiagnostics == 15)
        #expect(hive.diagnostics.last.map { "\($0)".contains("NoSuchModule20") } == true)
    }
}

/// Reaches the hive's managers through its hook's context, not through a global.
final class HubContextModule: Module, @unchecked Sendable {
    init() {}
    func setUp(_ context: ModuleContext) throws {
        guard let services = context.services, let router = context.router, let mediator = context.mediator else {
            hiveEvents.add("hub-context.setUp no hive")
            return
        }
        services.register((any HubOrderService).self) { resolver, arguments in HubOrderServiceImpl(resolver: resolver, arguments: arguments) }
        try router.addRoute("/context")
        mediator.register(HubOrderTarget.self, as: "context")
        hiveEvents.add("hub-context.setUp \(context.hive != nil)")
    }
}

@Suite struct HubContextTests {
    @Test func hooksReachTheHivesManagersThroughTheirContext() async throws {
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        try hive.modules.register(HubContextModule.self)
        try await HiveHost(hive: hive).start()
        #expect(hiveEvents.entries(withPrefix: "hub-context.") == ["setUp true"])
        #expect(try hive.services.resolve((any HubOrderService).self).name() == "order service")
        #expect(hive.router.canRoute("/context"))
        #expect(hive.mediator.canPerform(target: "context", action: "ping"))
    }

    @Test func customEventConstantsNeedNoTry() {
        #expect(CustomEvent(offset: 1).value == 1001)
        #expect(ModuleError.missingDependency(module: "A", dependency: "B") == .missingDependency(module: "A", dependency: "B"))
    }
}

/// The README's `Hive.bootstrap` example, as written there.
func readmeBootstrap() throws {
    try Hive.bootstrap {
        Hive(modules: ModuleManager(configuration: .init(isProfilingEnabled: true)), logger: Logger(label: "app"))
    }
}

@Suite struct ReadmeBootstrapTests {
    @Test func theReadmesBootstrapCompilesAndIsRefusedOnceSharedIsInUse() {
        _ = Hive.shared
        #expect {
            try readmeBootstrap()
        } throws: { error in
            guard case HiveError.alreadyBootstrapped = error else { return false }
            return true
        }
    }
}
