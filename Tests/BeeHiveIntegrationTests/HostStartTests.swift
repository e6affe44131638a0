@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import Foundation
import Testing

final class HostMissingModule: Module, @unchecked Sendable {
    init() {}
}

final class HostNeedsMissingModule: Module, @unchecked Sendable {
    static var dependencies: [ModuleDependency] { [.module(HostMissingModule.self)] }
    init() {}
}

@Suite struct HostStartTests {
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
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/lib/libTypo.so", [
            "beehive:1|module|BeeHiveIntegrationTests.NoSuchModule",
        ])))
        try await HiveHost(hive: hive, startupCheck: .logProblems).start()
        #expect(hive.modules.isStarted)
    }

    /// The first start fails (a bad annotation, then a missing dependency); once each is fixed, start succeeds.
    @Test func aStartThatFailedCanBeRetried() async throws {
        let source = ScriptedSource()
        let hive = Hive(registry: AnnotationRegistry(source: source))
        source.enqueue(.loaded(ScriptedSource.object(1, "/app/lib/libTypo.so", [
            "beehive:1|module|BeeHiveIntegrationTests.NoSuchModule",
        ])))
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
