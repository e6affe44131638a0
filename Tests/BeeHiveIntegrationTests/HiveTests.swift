@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// What the test modules and handlers saw, in order.
final class HiveEventLog: Sendable {
    private let entries = Locked<[String]>([])

    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }

    func entries(withPrefix prefix: String) -> [String] {
        all.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

let hiveEvents = HiveEventLog()

/// Each test uses its own module type (the log is shared by tests running in parallel).
class HiveRecordingModule: Module, @unchecked Sendable {
    class var tag: String { "base" }
    required init() {}
    func setUp(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).setUp") }
    func initialize(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).init") }
    func splash(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).splash") }
    func openURL(_ context: ModuleContext) throws {
        hiveEvents.add("\(Self.tag).openURL \(context.customParameter(as: String.self) ?? "?")")
    }
    func willTerminate(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).willTerminate") }
    func tearDown(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).tearDown") }
    func unmount(_ context: ModuleContext) throws { hiveEvents.add("\(Self.tag).unmount") }
}

final class HiveCatalogModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "catalog" } }
final class HiveReviewsModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "reviews" } }
final class HiveServedModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "served" } }

protocol HiveGreeter: Sendable {
    func greet() -> String
}

final class HiveGreeterImpl: HiveGreeter, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
    func greet() -> String { "hello from an annotation" }
}

final class HiveCatalogHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool {
        hiveEvents.add("catalog.route \(parameters["id"] ?? "?")")
        return true
    }
}

/// Discovery as the test scripts it: each poll hands out the next queued batch of object events.
final class ScriptedSource: AnnotationSource {
    private let batches = Locked<[[ObjectEvent]]>([])

    func enqueue(_ events: ObjectEvent...) { batches.withLock { $0.append(events) } }
    func poll() -> [ObjectEvent] { batches.withLock { $0.isEmpty ? [] : $0.removeFirst() } }

    /// An object whose records are parsed from their text, as discovery hands them over.
    static func object(_ id: UInt64, _ path: String, _ records: [String]) -> ObjectAnnotations {
        var parsed: [AnnotationRecord] = []
        for (offset, text) in records.enumerated() {
            let kind = text.split(separator: "|").dropFirst().first.flatMap { AnnotationKind(rawValue: String($0)) }
            let origin = RecordOrigin(objectPath: path, section: kind?.section ?? SectionName.modules, offset: offset)
            if case .success(let record) = RecordParser.parse(bytes: Array(text.utf8), origin: origin) { parsed.append(record) }
        }
        return ObjectAnnotations(
            object: LoadedObject(id: id, path: path, buildID: nil, baseAddress: 0), isAnnotated: true, records: parsed,
            diagnostics: [])
    }
}

/// The adapter an app writes to run its host in a ServiceGroup (see `HiveHost`).
struct ModulesService: Service {
    let host: HiveHost
    func run() async throws { try await host.run(untilShutdown: gracefulShutdown) }
}

@Suite struct HiveTests {
    @Test func annotationsReachEveryManagerAndTheHostRunsTheLifecycle() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/bin/shop", [
            "beehive:1|module|BeeHiveIntegrationTests.HiveCatalogModule|level=basic|priority=5",
            "beehive:1|service|BeeHiveIntegrationTests.HiveGreeter|BeeHiveIntegrationTests.HiveGreeterImpl|scope=singleton",
            "beehive:1|route|/catalog/:id|BeeHiveIntegrationTests.HiveCatalogHandler",
        ])))
        let host = HiveHost(hive: hive)
        try await host.start()
        #expect(hive.diagnostics.isEmpty)
        #expect(hive.modules.modules.map(\.name) == ["BeeHiveIntegrationTests.HiveCatalogModule"])
        #expect(try hive.services.resolve((any HiveGreeter).self).greet() == "hello from an annotation")
        #expect(hiveEvents.entries(withPrefix: "catalog.") == ["setUp", "init", "splash"])

        let result = try hive.open("/catalog/42")
        #expect(result.isHandled)
        #expect(hiveEvents.entries(withPrefix: "catalog.").suffix(2) == ["route 42", "openURL /catalog/42"])

        try host.stop()
        try host.stop()
        #expect(hive.modules.isStopped)
        #expect(hiveEvents.entries(withPrefix: "catalog.").suffix(3) == ["openURL /catalog/42", "willTerminate", "tearDown"])
    }

    @Test func aPluginObjectArrivingAfterStartCatchesUpAndLeavesWhenRetired() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        let host = HiveHost(hive: hive)
        try await host.start()
        #expect(hive.modules.modules.isEmpty)

        source.enqueue(.loaded(ScriptedSource.object(2, "/app/plugins/libReviews.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HiveReviewsModule",
        ])))
        #expect(hive.refresh().isEmpty)
        try await hive.modules.waitForLaunch()
        #expect(hiveEvents.entries(withPrefix: "reviews.") == ["setUp", "init", "splash"])

        hive.registry.retireObjects(atPath: "/app/plugins/libReviews.so")
        #expect(hive.refresh().isEmpty)
        #expect(hive.modules.modules.isEmpty)
        #expect(hiveEvents.entries(withPrefix: "reviews.").suffix(2) == ["tearDown", "unmount"])
        try host.stop()
    }

    @Test func managersGetWhatTheRegistryHoldsEvenIfSomeoneElseRefreshedIt() throws {
        let source = ScriptedSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(ScriptedSource.object(5, "/app/bin/early", [
            "beehive:1|route|/early|BeeHiveIntegrationTests.HiveCatalogHandler",
            "beehive:1|module|BeeHiveIntegrationTests.NoSuchEarlyModule",
        ])))
        #expect(registry.refresh().added.count == 2)
        let hive = Hive(registry: registry)
        let diagnostics = hive.refresh()
        #expect(hive.router.canRoute("/early"))
        #expect(diagnostics.count == 1)
        #expect(hive.refresh().isEmpty)
    }

    /// A manager that the hive feeds and that is also given the registry's records by hand (`apply`) registers
    /// each record once, and the hive's removal takes it away: both go through the manager's one ledger.
    @Test func aManagerFedByItsHiveAndByHandRegistersEachRecordOnce() throws {
        let source = ScriptedSource()
        let registry = AnnotationRegistry(source: source)
        let object = ScriptedSource.object(6, "/app/lib/libtwice.so", ["beehive:1|route|/twice|BeeHiveIntegrationTests.HiveCatalogHandler"])
        source.enqueue(.loaded(object))
        let hive = Hive(registry: registry)
        hive.refresh()
        let twice = { hive.router.routes().filter { $0.pattern.text == "/twice" }.count }
        #expect(twice() == 1)
        #expect(hive.router.apply(registry.snapshot()).isEmpty)
        #expect(twice() == 1, "fed by the hive and by hand, registered once")
        source.enqueue(.unloaded(object.object))
        hive.refresh()
        #expect(twice() == 0, "the hive's removal leaves no copy behind")
    }

    @Test func bootstrapAfterFirstUseIsRefused() {
        _ = Hive.shared
        #expect(throws: HiveError.self) { try Hive.bootstrap { Hive() } }
    }

    @Test func pluginErrorsNameThePath() {
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        #expect {
            try hive.loadPlugin(atPath: "/nonexistent/libNothing.so")
        } throws: { error in
            guard case HiveError.plugin(let failure) = error else { return false }
            return failure.path == "/nonexistent/libNothing.so" && "\(error)".contains("/nonexistent/libNothing.so")
        }
        #expect {
            try hive.unloadPlugin(atPath: "/nonexistent/libNothing.so")
        } throws: { error in
            guard case HiveError.pluginNotLoaded(let path) = error else { return false }
            return path == "/nonexistent/libNothing.so"
        }
    }

    @Test func unresolvableAnnotationsAreReportedWithTheirObject() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(3, "/app/lib/libTypo.so", [
            "beehive:1|module|BeeHiveIntegrationTests.NoSuchModule",
            "beehive:1|route|/typo|BeeHiveIntegrationTests.NoSuchHandler",
        ])))
        // The module is refused when delivered; the route's handler is resolved at its first match, so
        // validation (run at start) is what reports it.
        let diagnostics = hive.refresh()
        #expect(diagnostics.count == 1)
        #expect(hive.diagnostics.count == 1)
        let problems = hive.validateAnnotations()
        #expect(problems.count == 2)
        #expect((diagnostics + problems).allSatisfy { $0.isError && "\($0)".contains("/app/lib/libTypo.so") })
        #expect(problems.contains { "\($0)".contains("NoSuchHandler") })
    }

    @Test func inAServiceGroupTheHostTearsDownOnGracefulShutdown() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(4, "/app/bin/server", ["beehive:1|module|BeeHiveIntegrationTests.HiveServedModule"])))
        let service = ModulesService(host: HiveHost(hive: hive))
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: service)], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // Hang guard only: the host normally splashes within milliseconds.
            for _ in 0..<6000 where !hiveEvents.entries(withPrefix: "served.").contains("splash") {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(hiveEvents.entries(withPrefix: "served.") == ["setUp", "init", "splash"])
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(hiveEvents.entries(withPrefix: "served.") == ["setUp", "init", "splash", "willTerminate", "tearDown"])
    }
}
