@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Testing

final class HostMissingModule: Module, @unchecked Sendable {
    init() {}
}

final class HostNeedsMissingModule: Module, @unchecked Sendable {
    static var dependencies: [ModuleDependency] { [.module(HostMissingModule.self)] }
    init() {}
}

/// An asynchronous init that runs until `opened`, so that a second start arrives while the first one runs.
final class HostGatedModule: AsyncModule, @unchecked Sendable {
    static let entered = Locked(false)
    static let opened = Locked(false)
    init() {}
    func initialize(_ context: ModuleContext) async throws {
        Self.entered.withLock { $0 = true }
        while !Self.opened.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    }
}

@Suite(.serialized) struct HostStartTests {
    /// A hive whose discovery found one module annotation naming no type, in /app/lib/libTypo.so.
    static func hiveWithAMisspeltModule() -> Hive {
        let source = ScriptedSource()
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/lib/libTypo.so", [
            "beehive:1|module|BeeHiveIntegrationTests.NoSuchModule",
        ])))
        return Hive(registry: AnnotationRegistry(source: source))
    }

    /// A misspelt module, route handler, target and service implementation: start fails with every one
    /// named, with its object file and record.
    @Test func misspeltAnnotationsFailStartNamingObjectAndRecord() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/lib/libTypos.so", [
            "beehive:1|module|BeeHiveIntegrationTests.HiveCatalogModul",
            "beehive:1|route|/typo/:id|BeeHiveIntegrationTests.HiveCatalogHandlr",
            "beehive:1|target|typo|BeeHiveIntegrationTests.NoSuchTarget",
            "beehive:1|service|BeeHiveIntegrationTests.HiveGreeter|BeeHiveIntegrationTests.HiveGreeterImp",
        ])))
        let host = HiveHost(hive: hive)
        await #expect {
            try await host.start()
        } throws: { error in
            guard case HiveError.invalidAnnotations(let problems) = error else { return false }
            let text = "\(error)"
            return problems.count == 4 && problems.allSatisfy { "\($0)".contains("/app/lib/libTypos.so") }
                && ["HiveCatalogModul", "HiveCatalogHandlr", "NoSuchTarget", "HiveGreeterImp"].allSatisfy(text.contains)
        }
        #expect(!hive.modules.isStarted)
        #expect(hive.validateAnnotations().count == 4)
    }

    /// A misspelt service protocol, with an implementation that exists: no lookup in code can reach the
    /// service, so start fails naming the protocol, the object file and the record.
    @Test func misspeltServiceProtocolFailsStartNamingObjectAndRecord() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        let record = "beehive:1|service|BeeHiveIntegrationTests.HiveGreetr|BeeHiveIntegrationTests.HiveGreeterImpl"
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/lib/libProtocolTypo.so", [record])))
        await #expect {
            try await HiveHost(hive: hive).start()
        } throws: { error in
            guard case HiveError.invalidAnnotations(let problems) = error, problems.count == 1,
                  case .registry(let diagnostic) = problems[0]
            else { return false }
            return diagnostic.kind == .unresolvedType(name: "BeeHiveIntegrationTests.HiveGreetr")
                && diagnostic.objectPath == "/app/lib/libProtocolTypo.so" && diagnostic.record == record
        }
        #expect(!hive.modules.isStarted)
    }

    @Test func logProblemsStartsWithoutTheBadAnnotations() async throws {
        let hive = Self.hiveWithAMisspeltModule()
        try await HiveHost(hive: hive, startupCheck: .logProblems).start()
        #expect(hive.modules.isStarted)
    }

    /// A second start while the first one waits for an async init does not return before it: both return once
    /// the init is done, and the modules launched once.
    @Test func aStartMadeWhileAnotherRunsWaitsForIt() async throws {
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        try hive.modules.register(HostGatedModule.self, isAsync: true)
        let host = HiveHost(hive: hive)
        let first = Task { try await host.start() }
        while !HostGatedModule.entered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let returned = Locked([String]())
        let second = Task {
            try await host.start()
            returned.withLock { $0.append("second") }
        }
        // The second start is listed as a waiter, or runs into the phase check, within these 200 ms; it must
        // not return while the init is held.
        try await Task.sleep(for: .milliseconds(200))
        #expect(returned.withLock { $0 }.isEmpty, "a start returned while the first one's async init was running")
        returned.withLock { $0.append("opened") }
        HostGatedModule.opened.withLock { $0 = true }
        try await first.value
        try await second.value
        #expect(returned.withLock { $0 } == ["opened", "second"])
        #expect(hive.modules.modules.count == 1)
        try host.stop()
    }

    /// Callers waiting for a start that fails get its error; the next call tries again.
    @Test func aStartMadeWhileAFailingOneRunsGetsItsError() async throws {
        let hive = Self.hiveWithAMisspeltModule()
        let host = HiveHost(hive: hive)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        try await host.start()
                        return true
                    } catch {
                        guard case HiveError.invalidAnnotations(let problems) = error else { return true }
                        return problems.isEmpty
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: false, count: 8), "every caller gets the start's error")
        #expect(!hive.modules.isStarted)
        hive.registry.retireObjects(atPath: "/app/lib/libTypo.so")
        try await host.start()
        #expect(hive.modules.isStarted)
        try host.stop()
    }

    /// The first start fails (a bad annotation, then a missing dependency); once each is fixed, start succeeds.
    @Test func aStartThatFailedCanBeRetried() async throws {
        let hive = Self.hiveWithAMisspeltModule()
        try hive.modules.register(HostNeedsMissingModule.self)
        let host = HiveHost(hive: hive)
        await #expect(throws: HiveError.self) { try await host.start() }

        hive.registry.retireObjects(atPath: "/app/lib/libTypo.so")
        await #expect {
            try await host.start()
        } throws: { error in
            guard case HiveError.modules(.missingDependency(let module, let dependency)) = error else { return false }
            return module.hasSuffix("HostNeedsMissingModule") && dependency.hasSuffix("HostMissingModule")
        }

        try hive.modules.register(HostMissingModule.self)
        try await host.start()
        #expect(hive.modules.isStarted)
        #expect(hive.modules.modules.count == 2)
        try host.stop()
    }
}
