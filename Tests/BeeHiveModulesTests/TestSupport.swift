import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Dispatch
import Foundation
import Testing

/// What the modules of one test did, in order: "AlphaModule.setUp", ... Reached through the manager's
/// config store, so modules made from a type name record into their own test's recorder.
final class Recorder: Sendable {
    static let key = ConfigKey<Recorder>("test.recorder")
    private let entries = Locked<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }

    /// The modules that received `event`, in order.
    func modules(receiving event: ModuleEvent) -> [String] {
        all.compactMap { entry in
            entry.hasSuffix(".\(event)") ? String(entry.dropLast(event.description.count + 1)) : nil
        }
    }

    func index(of entry: String) -> Int? { all.firstIndex(of: entry) }
}

/// A one-shot flag one thread raises and another waits for, with a generous hang guard.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func open() { semaphore.signal() }

    /// False when the gate stayed closed for `seconds`.
    func wait(seconds: Double = 30) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

struct TestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Modules that record every hook they get. The short name is the type name without its module.
protocol Recording: Module {}

extension Recording {
    static var shortName: String { String(moduleName.split(separator: ".").last ?? "") }

    func record(_ context: ModuleContext) {
        context.config[Recorder.key]?.append("\(Self.shortName).\(context.event)")
    }

    func setUp(_ context: ModuleContext) throws { record(context) }
    func initialize(_ context: ModuleContext) throws { record(context) }
    func splash(_ context: ModuleContext) throws { record(context) }
    func tearDown(_ context: ModuleContext) throws { record(context) }
    func unmount(_ context: ModuleContext) throws { record(context) }
    func willTerminate(_ context: ModuleContext) throws { record(context) }
    func reload(_ context: ModuleContext) throws { record(context) }
    func didReceiveMemoryWarning(_ context: ModuleContext) throws { record(context) }
    func didReceiveUserSignal(_ context: ModuleContext) throws { record(context) }
    func openURL(_ context: ModuleContext) throws { record(context) }
}

/// A manager whose modules record into the returned recorder; no BEEHIVE_ENV from the real process.
func makeManager(
    failurePolicy: FailurePolicy = .continue,
    watchdogThreshold: Duration? = nil,
    profiling: Bool = false,
    environment: [String: String] = [:],
    extra: [String: any Sendable] = [:],
    diagnosticLimit: Int = 1000,
    watchdogReportLimit: Int = 1000,
    onDiagnostic: (@Sendable (ModuleDiagnostic) -> Void)? = nil
) -> (ModuleManager, Recorder) {
    let recorder = Recorder()
    var values: [String: any Sendable] = [Recorder.key.name: recorder]
    values.merge(extra) { _, new in new }
    let manager = ModuleManager(
        configuration: ModuleManager.Configuration(
            failurePolicy: failurePolicy, watchdogThreshold: watchdogThreshold, isProfilingEnabled: profiling,
            launchOptions: LaunchOptions(arguments: ["test"], environment: environment), diagnosticLimit: diagnosticLimit,
            watchdogReportLimit: watchdogReportLimit, onDiagnostic: onDiagnostic),
        config: ConfigStore(values))
    return (manager, recorder)
}

/// A registry update holding module records, as the section registry would hand it over.
func annotationUpdate(
    _ modules: [ModuleAnnotation], objectPath: String = "/opt/app/libshop.so", removed: Bool = false
) -> RegistryUpdate {
    var update = RegistryUpdate()
    let records = modules.enumerated().map { index, module in
        AnnotationRecord(
            payload: .module(module),
            text: "beehive:1|module|\(module.typeName)|level=\(module.level.rawValue)|priority=\(module.priority)|async=\(module.isAsync ? 1 : 0)",
            origin: RecordOrigin(objectPath: objectPath, section: SectionName.modules, offset: index * 64))
    }
    if removed { update.removed = records } else { update.added = records }
    return update
}

/// Polls `condition` until it holds; false after `seconds` (a hang guard, not a timing assertion).
func eventually(seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

func temporaryFile(named name: String, contents: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beehive-modules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try contents.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

// MARK: - Modules used by the tests. Top-level classes, so their names resolve like annotated ones.

final class AlphaModule: Recording {}
final class BetaModule: Recording {}
final class GammaModule: Recording {}
final class DeltaModule: Recording {}
final class PlistModule: Recording {}
final class JSONModule: Recording {}
final class AnnotatedModule: Recording {}
final class CodeModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(PlistModule.self)] }
}
final class NotAModule {}

final class CycleAModule: Recording {
    static var dependencies: [ModuleDependency] { ["BeeHiveModulesTests.CycleBModule"] }
}
final class CycleBModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(CycleCModule.self)] }
}
final class CycleCModule: Recording {
    static var dependencies: [ModuleDependency] { [.module(CycleAModule.self)] }
}
final class NeedsMissingModule: Recording {
    static var dependencies: [ModuleDependency] { ["BeeHiveModulesTests.NowhereModule"] }
}

final class FailingModule: Recording {
    func setUp(_ context: ModuleContext) throws {
        record(context)
        if context.config[FailingModule.failSetUp] == true { throw TestError(message: "setUp refused") }
    }

    func reload(_ context: ModuleContext) throws {
        record(context)
        throw TestError(message: "reload refused")
    }

    static let failSetUp = ConfigKey<Bool>("test.failSetUp")
}

final class LateModule: Recording {}
