@_spi(BeeHiveInternals) import BeeHiveModules
import Foundation
import Testing

/// Blocks in reload until the watchdog has reported it, so the test needs no timing assumption.
final class BlockingModule: Recording {
    static let reported = ConfigKey<Gate>("test.watchdogReported")

    func reload(_ context: ModuleContext) throws {
        record(context)
        _ = context.config[Self.reported]?.wait()
    }
}

@Suite struct ObservationTests {
    @Test func watchdogReportsABlockingHookWhileItBlocks() throws {
        let reported = Gate()
        let (manager, _) = makeManager(
            watchdogThreshold: .milliseconds(50), extra: [BlockingModule.reported.name: reported],
            onDiagnostic: { diagnostic in
                if case .hookBlocked = diagnostic.kind { reported.open() }
            })
        try manager.register(AlphaModule.self, priority: 1)
        try manager.register(BlockingModule.self)
        try manager.start()
        try manager.trigger(.reload)
        let reports = try #require(manager.watchdog).reports
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(report.module == "BeeHiveModulesTests.BlockingModule")
        #expect(report.event == .reload)
        #expect(report.blockedFor >= .milliseconds(50))
        #expect(report.description.contains("BlockingModule has been blocking in reload for at least"))
        #expect(manager.diagnostics.contains { if case .hookBlocked = $0.kind { return true } else { return false } })
    }

    /// Three blocking reloads with room for two reports: the newest two are kept, the first is counted.
    @Test func watchdogKeepsTheNewestReportsUpToItsLimit() throws {
        let reported = Gate()
        let (manager, _) = makeManager(
            watchdogThreshold: .milliseconds(20), extra: [BlockingModule.reported.name: reported], watchdogReportLimit: 2,
            onDiagnostic: { diagnostic in
                if case .hookBlocked = diagnostic.kind { reported.open() }
            })
        try manager.register(BlockingModule.self)
        try manager.start()
        for _ in 0..<3 { try manager.trigger(.reload) }
        let watchdog = try #require(manager.watchdog)
        #expect(watchdog.reports.count == 2)
        #expect(watchdog.droppedReports == 1)
        #expect(watchdog.reportLimit == 2)
    }

    /// The manager keeps its newest diagnostics up to its limit and counts the rest.
    @Test func diagnosticsKeepTheNewestUpToTheLimit() throws {
        let (manager, _) = makeManager(diagnosticLimit: 2)
        try manager.register(AlphaModule.self)
        try manager.register(BetaModule.self)
        for _ in 0..<4 { try manager.register(AlphaModule.self) }
        try manager.register(BetaModule.self)
        #expect(manager.droppedDiagnostics == 3)
        let kept = manager.diagnostics.map(\.description)
        #expect(kept.count == 2)
        #expect(kept.first?.contains("AlphaModule") == true)
        #expect(kept.last?.contains("BetaModule") == true)
    }

    @Test func watchdogStaysQuietForQuickHooks() throws {
        let (manager, _) = makeManager(watchdogThreshold: .seconds(30))
        try manager.register(AlphaModule.self)
        try manager.start()
        for _ in 0..<100 { try manager.trigger(.reload) }
        #expect(manager.watchdog?.reports.isEmpty == true)
    }

    @Test func profilerRecordsEveryHookIncludingAsyncInits() async throws {
        let (manager, _) = makeManager(profiling: true)
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(BetaModule.self, isAsync: true)
        try manager.start()
        try await manager.waitForLaunch()
        try manager.trigger(.reload)
        try manager.trigger(.reload)

        let samples = manager.profiler.samples
        let beta = "BeeHiveModulesTests.BetaModule"
        let alpha = "BeeHiveModulesTests.AlphaModule"
        #expect(samples.contains { $0.module == beta && $0.event == .initialize })
        #expect(samples.filter { $0.module == alpha && $0.event == .reload }.count == 2)
        #expect(samples.filter { $0.event == .setUp }.map(\.module) == [alpha, beta])

        let table = manager.profiler.table()
        let lines = table.split(separator: "\n")
        #expect(lines.first?.contains("Module") == true && lines.first?.contains("Total ms") == true)
        #expect(lines.contains { $0.contains(beta) && $0.contains("init") })
        #expect(lines.contains { $0.contains(alpha) && $0.contains("reload") && $0.contains(" 2 ") })

        let json = try JSONSerialization.jsonObject(with: manager.profiler.chromeTrace()) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == samples.count)
        let asyncInit = try #require(slices.first { $0["name"] as? String == beta && $0["cat"] as? String == "init" })
        #expect(asyncInit["ts"] is Double || asyncInit["ts"] is NSNumber)
        #expect(asyncInit["dur"] != nil && asyncInit["tid"] != nil && asyncInit["pid"] != nil)
        #expect(events.contains { $0["ph"] as? String == "M" })

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beehive-trace-\(UUID().uuidString).json").path
        try manager.profiler.writeChromeTrace(toPath: path)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) is [String: Any])
    }

    @Test func disabledProfilerRecordsNothing() throws {
        let (manager, _) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        try manager.trigger(.reload)
        #expect(!manager.profiler.isEnabled)
        #expect(manager.profiler.samples.isEmpty)
        #expect(manager.watchdog == nil)
    }

    @Test func profilerKeepsAtMostItsMaximum() throws {
        let profiler = TimeProfiler(isEnabled: true, maximumSamples: 0)
        #expect(profiler.samples.isEmpty)
        #expect(profiler.droppedSamples == 0)
        #expect(try JSONSerialization.jsonObject(with: profiler.chromeTrace()) is [String: Any])
    }
}
