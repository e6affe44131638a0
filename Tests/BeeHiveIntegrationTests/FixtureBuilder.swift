import Foundation
import Synchronization

/// Builds the fixture packages under Tests/Fixtures with SwiftPM, the way a user's package is built, and runs
/// what they produce. Each (fixture, configuration, linker) is built once per test run, into a build folder of its
/// own. At most two builds run at once: a release build spends minutes in whole-module optimisation on one core,
/// and the machine has two.
enum FixtureBuilder {
    enum Configuration: String, Sendable, CaseIterable { case debug, release }
    enum Linker: String, Sendable, CaseIterable { case gold, lld }
    /// `swift build --sanitize`: instruments the fixture's Swift and C code, discovery's C code included.
    enum Sanitizer: String, Sendable, CaseIterable { case address, thread }

    struct Build: Sendable {
        let fixture: String
        let configuration: Configuration
        let linker: Linker
        let sanitizer: Sanitizer?
        let staticStandardLibrary: Bool
        /// The package's folder, and the build folder (`--scratch-path`) its build went to.
        let package: URL
        let scratchPath: URL
        /// The folder holding the built executables and shared libraries.
        let binPath: URL

        func product(_ name: String) -> URL { binPath.appending(path: name) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let repositoryRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixturesRoot = repositoryRoot.appending(path: "Tests/Fixtures")

    private struct Key: Hashable {
        let fixture: String
        let configuration: Configuration
        let linker: Linker
        let sanitizer: Sanitizer?
        let staticStandardLibrary: Bool
    }

    /// One build's outcome; its lock is held while it builds, so a second test asking for it waits for the first.
    private final class Slot: Sendable {
        let result = Mutex<Result<Build, Failure>?>(nil)
    }

    private static let slots = Mutex<[Key: Slot]>([:])
    private static let concurrentBuilds = 2
    private static let buildPermits = DispatchSemaphore(value: concurrentBuilds)
    /// Taken while waiting for every permit, so that two exclusive callers cannot each hold one and wait forever.
    private static let exclusiveLock = Mutex(())

    /// - Parameter staticStandardLibrary: `--static-swift-stdlib`, with the toolchain's static library folder on
    ///   the linker's path so that a dynamic library product links too (SwiftPM leaves it out).
    static func build(
        _ fixture: String, _ configuration: Configuration = .debug, linker: Linker = .gold, sanitizer: Sanitizer? = nil,
        staticStandardLibrary: Bool = false
    ) throws -> Build {
        let key = Key(
            fixture: fixture, configuration: configuration, linker: linker, sanitizer: sanitizer,
            staticStandardLibrary: staticStandardLibrary)
        let slot = slots.withLock { slots in
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        return try slot.result.withLock { result in
            if let result { return try result.get() }
            buildPermits.wait()
            defer { buildPermits.signal() }
            let built = Result { () throws(Failure) -> Build in try runBuild(key) }
            result = built
            return try built.get()
        }
    }

    /// Runs `body` while no fixture builds: for tests that build a package of their own (`scripts/demo` builds
    /// Examples/ShopApp): a third build beside two would only slow all three on the machine's two cores.
    static func withoutConcurrentBuilds<Result: Sendable>(_ body: () throws -> Result) throws -> Result {
        try exclusiveLock.withLock { _ in
            for _ in 0..<concurrentBuilds { buildPermits.wait() }
            defer { for _ in 0..<concurrentBuilds { buildPermits.signal() } }
            return try body()
        }
    }

    private static func runBuild(_ key: Key) throws(Failure) -> Build {
        let package = fixturesRoot.appending(path: key.fixture)
        let scratch = package.appending(
            path: ".build-\(key.configuration.rawValue)-\(key.linker.rawValue)" + (key.sanitizer.map { "-\($0.rawValue)" } ?? "")
                + (key.staticStandardLibrary ? "-static" : ""))
        var arguments = ["build", "--package-path", package.path, "--scratch-path", scratch.path,
                         "-c", key.configuration.rawValue]
        if key.linker == .lld { arguments += ["-Xswiftc", "-use-ld=lld"] }
        if let sanitizer = key.sanitizer { arguments += ["--sanitize", sanitizer.rawValue] }
        if key.staticStandardLibrary {
            let staticLibraries = swiftExecutable.resolvingSymlinksInPath().deletingLastPathComponent()
                .deletingLastPathComponent().appending(path: "lib/swift_static/linux")
            arguments += ["--static-swift-stdlib", "-Xlinker", "-L\(staticLibraries.path)"]
        }
        let started = ContinuousClock.now
        let build = try run(swiftExecutable, arguments)
        // On standard error, so that a run's log shows which fixture builds its time went to.
        FileHandle.standardError.write(Data(
            "fixture build: \(scratch.lastPathComponent) of \(key.fixture): \(started.duration(to: .now).components.seconds) s\n".utf8))
        guard build.status == 0 else {
            throw Failure(description: "building fixture \(key.fixture) (\(key.configuration), \(key.linker)) failed:\n\(build.output)")
        }
        let binPath = try run(swiftExecutable, arguments + ["--show-bin-path"])
        guard binPath.status == 0 else { throw Failure(description: "no bin path for \(key.fixture): \(binPath.output)") }
        let path = binPath.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return Build(
            fixture: key.fixture, configuration: key.configuration, linker: key.linker, sanitizer: key.sanitizer,
            staticStandardLibrary: key.staticStandardLibrary, package: package, scratchPath: scratch, binPath: URL(filePath: path))
    }

    static var swiftExecutable: URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: "swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(filePath: "/usr/bin/swift")
    }

    struct Output: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
        var output: String { standardOutput + standardError }
    }

    /// Runs a program to completion and captures what it prints.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], currentDirectory: URL? = nil
    ) throws(Failure) -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let outputFile = FileManager.default.temporaryDirectory.appending(path: "beehive-\(UUID().uuidString).out")
        let errorFile = FileManager.default.temporaryDirectory.appending(path: "beehive-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        do {
            // Files rather than pipes: a build prints more than a pipe buffer holds.
            let stdout = try FileHandle(forWritingTo: outputFile)
            let stderr = try FileHandle(forWritingTo: errorFile)
            process.standardOutput = stdout
            process.standardError = stderr
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try stdout.close()
            try stderr.close()
            // Decoding repairs invalid UTF-8 instead of failing: programs may print malformed records as stored.
            return Output(
                status: process.terminationStatus,
                standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
                standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
        } catch {
            throw Failure(description: "cannot run \(executable.path) \(arguments.joined(separator: " ")): \(error)")
        }
    }
}
