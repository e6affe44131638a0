@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import BeeHiveServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// What the served modules did, in order; in the child process also printed, for the parent to read.
let servedLog = ServedLog()

final class ServedLog: Sendable {
    static let isChild = ProcessInfo.processInfo.environment["BEEHIVE_SERVED_HOST_CHILD"] == "1"
    private let entries = Locked<[String]>([])

    func add(_ entry: String) {
        entries.withLock { $0.append(entry) }
        if Self.isChild {
            // Unbuffered, so the parent reads each line as soon as it happens.
            FileHandle.standardOutput.write(Data("served: \(entry)\n".utf8))
        }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// Connects in an asynchronous init and closes in an asynchronous tearDown.
final class ServedDatabaseModule: AsyncModule {
    func initialize(_ context: ModuleContext) async throws {
        try await Task.sleep(for: .milliseconds(5))
        servedLog.add("database.init")
    }

    func splash(_ context: ModuleContext) async throws { servedLog.add("database.splash") }
    func willTerminate(_ context: ModuleContext) async throws { servedLog.add("database.willTerminate") }

    func tearDown(_ context: ModuleContext) async throws {
        await Task.yield()
        servedLog.add("database.tearDown")
    }
}

final class ServedCacheModule: Module {
    static var dependencies: [ModuleDependency] { [.module(ServedDatabaseModule.self)] }
    func initialize(_ context: ModuleContext) throws { servedLog.add("cache.init") }
    func splash(_ context: ModuleContext) throws { servedLog.add("cache.splash") }
    func willTerminate(_ context: ModuleContext) throws { servedLog.add("cache.willTerminate") }
    func tearDown(_ context: ModuleContext) throws { servedLog.add("cache.tearDown") }
}

/// Its reload fails, and its failures stop the app.
final class ServedPaymentsModule: AsyncModule {
    static var failureBehavior: ModuleFailureBehavior { .stopsApp }
    func reload(_ context: ModuleContext) async throws { throw PaymentsUnavailable() }
    func tearDown(_ context: ModuleContext) async throws { servedLog.add("payments.tearDown") }
}

/// Its setUp sends the process SIGHUP: the signal arrives while the modules launch.
final class ServedHangUpModule: Module {
    func setUp(_ context: ModuleContext) throws {
        kill(getpid(), SIGHUP)
        servedLog.add("hangUp.setUp")
    }
    func tearDown(_ context: ModuleContext) throws { servedLog.add("hangUp.tearDown") }
}

/// Set up first; its synchronous init is done by the time the slow one starts.
final class ServedFirstModule: Module {
    func setUp(_ context: ModuleContext) throws { servedLog.add("first.setUp") }
    func initialize(_ context: ModuleContext) throws { servedLog.add("first.init") }
    func splash(_ context: ModuleContext) throws { servedLog.add("first.splash") }
    func willTerminate(_ context: ModuleContext) throws { servedLog.add("first.willTerminate") }
    func tearDown(_ context: ModuleContext) throws { servedLog.add("first.tearDown") }
}

/// An async init that would take an hour unless cancelled.
final class ServedSlowInitModule: AsyncModule {
    static var dependencies: [ModuleDependency] { [.module(ServedFirstModule.self)] }
    func setUp(_ context: ModuleContext) async throws { servedLog.add("slow.setUp") }

    func initialize(_ context: ModuleContext) async throws {
        servedLog.add("slow.init started")
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {
            servedLog.add("slow.init cancelled")
            throw error
        }
    }

    func splash(_ context: ModuleContext) async throws { servedLog.add("slow.splash") }
    func willTerminate(_ context: ModuleContext) async throws { servedLog.add("slow.willTerminate") }
    func tearDown(_ context: ModuleContext) async throws { servedLog.add("slow.tearDown") }
}

/// What a launch cancelled during the slow init logs: no splash, then willTerminate and tearDown in reverse
/// for both modules, which were set up.
let cancelledLaunch = [
    "first.setUp", "slow.setUp", "first.init", "slow.init started", "slow.init cancelled",
    "first.willTerminate", "slow.willTerminate", "slow.tearDown", "first.tearDown",
]

struct PaymentsUnavailable: Error, CustomStringConvertible {
    var description: String { "payment provider unreachable" }
}

struct NoObjects: AnnotationSource {
    func poll() -> [ObjectEvent] { [] }
}

private let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

private func servedHost(_ modules: [any Module]) throws -> HiveHost {
    let hive = Hive(registry: AnnotationRegistry(source: NoObjects()))
    for module in modules { try hive.modules.register(module) }
    return HiveHost(hive: hive)
}

/// This test binary again, as a child process that runs only the test `name` in child mode; what it prints (both
/// streams) goes to the returned file, which the caller removes.
private func startChild(running name: String) throws -> (Process, URL) {
    let output = FileManager.default.temporaryDirectory.appending(path: "beehive-served-\(UUID().uuidString).out")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let child = Process()
    child.executableURL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = ["--testing-library", "swift-testing", "--filter", name]
    var environment = ProcessInfo.processInfo.environment
    environment["BEEHIVE_SERVED_HOST_CHILD"] = "1"
    // The child checks signal handling, not leaks (the parent's run checks the same code for those). Under ASan,
    // one child on a loaded machine printed every line and still exited non-zero, most likely a LeakSanitizer
    // report at exit about work its ended group left in flight.
    if let options = environment["ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = options + ":detect_leaks=0" }
    child.environment = environment
    // Both streams to one file: a failure then shows what the child's runtime or a sanitizer said.
    let file = try FileHandle(forWritingTo: output)
    child.standardOutput = file
    child.standardError = file
    child.standardInput = FileHandle.nullDevice
    try child.run()
    return (child, output)
}

/// Polls until `condition` holds: a hang guard, not a timing.
private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(600)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct WaitTimedOut: Error {
    let what: String
}

@Suite(.serialized) struct HiveServiceTests {
    /// In this process: a graceful shutdown of the group. In the child process the parent test starts, SIGTERM
    /// does it, through the group's own signal handling.
    @Test func aGracefulShutdownEndsInWillTerminateAndTearDownInReverse() async throws {
        let host = try servedHost([ServedCacheModule(), ServedDatabaseModule()])
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: HiveService(host.serve))],
                gracefulShutdownSignals: ServedLog.isChild ? [.sigterm] : [], logger: quiet))
        let start = servedLog.all.count
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await waitUntil("splash") { servedLog.all.contains("cache.splash") }
            if !ServedLog.isChild { await group.triggerGracefulShutdown() }
            try await tasks.waitForAll()
        }
        servedLog.add("group ended")
        #expect(Array(servedLog.all[start...]) == [
            "database.init", "cache.init", "database.splash", "cache.splash",
            "database.willTerminate", "cache.willTerminate", "cache.tearDown", "database.tearDown", "group ended",
        ])
        #expect(host.hive.modules.isStopped)
    }

    @Test func aModuleWhosePolicyStopsTheAppEndsTheGroup() async throws {
        let host = try servedHost([ServedPaymentsModule()])
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: HiveService(host.serve))], gracefulShutdownSignals: [], logger: quiet))
        await #expect {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await waitUntil("start") { host.hive.modules.isStarted }
                try await host.hive.modules.waitForLaunch()
                await #expect(throws: ModuleError.self) { try await host.hive.modules.send(.reload) }
                try await tasks.waitForAll()
            }
        } throws: { error in
            "\(error)".contains("ServedPaymentsModule failed in reload: payment provider unreachable")
        }
        #expect(servedLog.all.last == "payments.tearDown")
        #expect(host.hive.modules.isStopped)
    }

    @Test func aGracefulShutdownDuringAnAsyncInitCancelsTheLaunch() async throws {
        let host = try servedHost([ServedFirstModule(), ServedSlowInitModule()])
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: HiveService(host.serve))], gracefulShutdownSignals: [], logger: quiet))
        let start = servedLog.all.count
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await waitUntil("slow init") { servedLog.all.contains("slow.init started") }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        servedLog.add("group ended")
        #expect(Array(servedLog.all[start...]) == cancelledLaunch + ["group ended"])
        #expect(host.hive.modules.isStopped)
    }

    /// Run by `sigtermDuringAnAsyncInitCancelsTheLaunchOfAChildProcess` in a child process only (skipped
    /// elsewhere): the host's own SIGTERM handling, `runUntilTerminated()`, with an init under way. It checks
    /// what it saw, and a failure is the child's exit status, which the parent checks.
    @Test(.enabled(if: ServedLog.isChild, "a child process's part: SIGTERM would end this process"))
    func runUntilTerminatedInTheChild() async throws {
        let host = try servedHost([ServedFirstModule(), ServedSlowInitModule()])
        try await host.runUntilTerminated()
        #expect(servedLog.all == cancelledLaunch)
        #expect(host.hive.modules.isStopped)
        servedLog.add("run ended")
    }

    /// SIGTERM while an async init runs cancels the launch at once (the init would take an hour), then the
    /// modules that were set up get willTerminate and tearDown, in reverse.
    @Test(.disabled(if: ServedLog.isChild)) func sigtermDuringAnAsyncInitCancelsTheLaunchOfAChildProcess() throws {
        let (child, output) = try startChild(running: "runUntilTerminatedInTheChild")
        defer {
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: output)
        }
        func printed() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        let deadline = ContinuousClock.now + .seconds(600)
        while !printed().contains("served: slow.init started") {
            guard ContinuousClock.now < deadline, child.isRunning else {
                Issue.record("the child never began the slow init:\n\(printed())")
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(child.processIdentifier, SIGTERM)
        // A hang guard: a host that waited for the init would run for an hour.
        let exitDeadline = ContinuousClock.now + .seconds(600)
        while child.isRunning && ContinuousClock.now < exitDeadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!child.isRunning, "the child did not end after SIGTERM:\n\(printed())")
        guard !child.isRunning else { return }
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(printed())")
        let lines = printed().split(separator: "\n").filter { $0.hasPrefix("served: ") }.map { String($0.dropFirst(8)) }
        #expect(lines == cancelledLaunch + ["run ended"])
    }

    /// Run by `sighupDuringLaunchDoesNotKillAChildProcess` in a child process only (skipped elsewhere): SIGHUP
    /// would end a process whose signal sources are not armed yet, the test process included. It checks what
    /// it saw; a failure is the child's exit status, which the parent checks.
    @Test(.enabled(if: ServedLog.isChild, "a child process's part: SIGHUP would end this process"))
    func hangUpRaisedDuringLaunchInTheChild() async throws {
        // An ignored signal stays ignored across exec: start from the default action, which ends the process.
        signal(SIGHUP, SIG_DFL)
        let host = try servedHost([ServedHangUpModule()])
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: HiveService(host.serve))], gracefulShutdownSignals: [], logger: quiet))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await waitUntil("start") { host.hive.modules.isStarted }
            try await host.hive.modules.waitForLaunch()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(servedLog.all == ["hangUp.setUp", "hangUp.tearDown"])
        #expect(host.hive.modules.isStopped)
        servedLog.add("group ended")
    }

    /// `serve` arms its signal sources before the first hook: a SIGHUP sent from a module's setUp does not
    /// kill the process.
    @Test(.disabled(if: ServedLog.isChild)) func sighupDuringLaunchDoesNotKillAChildProcess() throws {
        let (child, output) = try startChild(running: "hangUpRaisedDuringLaunchInTheChild")
        defer {
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: output)
        }
        let deadline = ContinuousClock.now + .seconds(600)
        while child.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!child.isRunning, "the child did not end within 600 s")
        guard !child.isRunning else { return }
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(printed)")
        let lines = printed.split(separator: "\n").filter { $0.hasPrefix("served: ") }.map { String($0.dropFirst(8)) }
        #expect(lines == ["hangUp.setUp", "hangUp.tearDown", "group ended"])
    }

    /// The same host in a child process, which SIGTERM shuts down.
    @Test(.disabled(if: ServedLog.isChild)) func sigtermToAChildProcessEndsItsGroupGracefully() throws {
        let (child, output) = try startChild(running: "aGracefulShutdownEndsInWillTerminateAndTearDownInReverse")
        defer {
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: output)
        }
        func printed() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        let deadline = ContinuousClock.now + .seconds(600)
        while !printed().contains("served: cache.splash") {
            guard ContinuousClock.now < deadline, child.isRunning else {
                Issue.record("the child never splashed:\n\(printed())")
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(child.processIdentifier, SIGTERM)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(printed())")
        let lines = printed().split(separator: "\n").filter { $0.hasPrefix("served: ") }.map { String($0.dropFirst(8)) }
        #expect(lines == [
            "database.init", "cache.init", "database.splash", "cache.splash",
            "database.willTerminate", "cache.willTerminate", "cache.tearDown", "database.tearDown", "group ended",
        ])
    }
}
