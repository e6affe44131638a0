import Foundation
import Synchronization

/// Builds the fixture packages under Tests/Fixtures with SwiftPM, the way a user's package is built, and runs
/// what they produce. Each (fixture, configuration, linker) is built once per test run. Every fixture and both
/// linkers share one build folder per configuration (Tests/Fixtures/.build-debug, …): the fixtures depend on
/// the core by the same path with the same flags, so the core is compiled once per configuration and a second
/// fixture compiles only its own targets; the linker is chosen by `BEEHIVE_LINKER`, which the manifests turn
/// into link settings, so the second linker's build only links the objects the first compiled. Each build's
/// products are then copied into a folder of that fixture's and linker's own, which the tests run from while
/// the next build relinks the shared folder.
/// At most two builds run at once: a release build spends minutes in whole-module optimisation on one core, and
/// the machine has two.
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
        /// The package's folder, and the build folder (`--scratch-path`) its build went to, shared by both linkers.
        let package: URL
        let scratchPath: URL
        /// The folder holding this linker's copy of the built executables, shared libraries and resource bundles.
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
    /// One lock per build folder: the builds that share one run one after the other, without holding a permit.
    private static let folders = Mutex<[String: Folder]>([:])
    private final class Folder: Sendable {
        let lock = Mutex(())
    }
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
            let built = folder(named: scratchFolder(key)).lock.withLock { _ in
                buildPermits.wait()
                defer { buildPermits.signal() }
                return Result { () throws(Failure) -> Build in try runBuild(key) }
            }
            result = built
            return try built.get()
        }
    }

    /// The build folder's name, the same for every fixture and both linkers.
    private static func scratchFolder(_ key: Key) -> String {
        ".build-\(key.configuration.rawValue)" + (key.sanitizer.map { "-\($0.rawValue)" } ?? "")
            + (key.staticStandardLibrary ? "-static" : "")
    }

    private static func scratchPath(_ key: Key) -> URL {
        fixturesRoot.appending(path: scratchFolder(key))
    }

    /// Runs `body` while no fixture build uses the build folder of `build`: for tests that build into it
    /// themselves (a command plugin over a fixture).
    static func withBuildFolder<Result: Sendable>(of build: Build, _ body: () throws -> Result) throws -> Result {
        try folder(named: build.scratchPath.lastPathComponent).lock.withLock { _ in
            try withoutConcurrentBuilds {
                forgetBuildPlan(in: build.scratchPath, build.configuration)
                return try body()
            }
        }
    }

    /// Removes the build plan SwiftPM keeps in a build folder (`<triple>/<configuration>/description.json`).
    /// SwiftPM reuses it when the arguments are those of the last build and no manifest of the last package
    /// graph changed, without noticing that another package is being built: the fixture's build then does
    /// nothing and reports success. Planning again costs a second or two.
    private static func forgetBuildPlan(in scratch: URL, _ configuration: Configuration) {
        let files = FileManager.default
        for triple in (try? files.contentsOfDirectory(atPath: scratch.path)) ?? [] {
            try? files.removeItem(at: scratch.appending(path: "\(triple)/\(configuration.rawValue)/description.json"))
        }
    }

    private static func folder(named name: String) -> Folder {
        folders.withLock { folders in
            if let folder = folders[name] { return folder }
            let folder = Folder()
            folders[name] = folder
            return folder
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
        let scratch = scratchPath(key)
        var arguments = ["build", "--package-path", package.path, "--scratch-path", scratch.path,
                         "-c", key.configuration.rawValue]
        // Read by the manifests (the core's and each fixture's): a link setting, so no compile command changes.
        var environment = ["BEEHIVE_LINKER": key.linker.rawValue]
        let macros = try prebuiltMacros(in: scratch)
        arguments += macros.arguments
        environment.merge(macros.environment) { $1 }
        if let sanitizer = key.sanitizer { arguments += ["--sanitize", sanitizer.rawValue] }
        if key.staticStandardLibrary {
            let staticLibraries = swiftExecutable.resolvingSymlinksInPath().deletingLastPathComponent()
                .deletingLastPathComponent().appending(path: "lib/swift_static/linux")
            arguments += ["--static-swift-stdlib", "-Xlinker", "-L\(staticLibraries.path)"]
        }
        forgetBuildPlan(in: scratch, key.configuration)
        let started = ContinuousClock.now
        let startedAt = Date()
        let build = try run(swiftExecutable, arguments, environment: environment)
        // On standard error, so that a run's log shows which fixture builds its time went to.
        FileHandle.standardError.write(Data(
            "fixture build: \(scratch.lastPathComponent) of \(key.fixture) with \(key.linker): \(started.duration(to: .now).components.seconds) s\n".utf8))
        guard build.status == 0 else {
            throw Failure(description: "building fixture \(key.fixture) (\(key.configuration), \(key.linker)) failed:\n\(build.output)")
        }
        let binPath = try run(swiftExecutable, arguments + ["--show-bin-path"], environment: environment)
        guard binPath.status == 0 else { throw Failure(description: "no bin path for \(key.fixture): \(binPath.output)") }
        let built = URL(filePath: binPath.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let products = package.appending(path: scratch.lastPathComponent + "-\(key.linker.rawValue)")
        let own = try productFiles(of: package, scratch: scratch, environment: environment)
        try copyProducts(from: built, to: products, linkedBy: key.linker, checking: own, since: startedAt)
        return Build(
            fixture: key.fixture, configuration: key.configuration, linker: key.linker, sanitizer: key.sanitizer,
            staticStandardLibrary: key.staticStandardLibrary, package: package, scratchPath: scratch, binPath: products)
    }

    /// The arguments and environment that make a fixture build (or a command plugin's build of a fixture)
    /// expand the macros with the plugin executable built next to this test bundle, instead of compiling
    /// swift-syntax again (the core's manifest reads `BEEHIVE_PREBUILT_MACROS`). The executable is put into the
    /// build folder (a hard link where it can) under its size and modification time: SwiftPM does not see a
    /// plugin named on the command line as an input, and a rebuilt macro must change the compile commands, or
    /// the fixture would keep old expansions. Without that executable (a test build that left the macros out),
    /// the fixture builds them itself.
    static func prebuiltMacros(in scratch: URL) throws(Failure) -> (arguments: [String], environment: [String: String]) {
        let built = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appending(path: "BeeHiveMacros-tool")
        let files = FileManager.default
        guard let attributes = try? files.attributesOfItem(atPath: built.path),
            let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        else { return ([], [:]) }
        let stamp = "\(size)-\(Int64(modified.timeIntervalSince1970 * 1_000_000))"
        let folder = scratch.appending(path: "prebuilt-macros")
        let copy = folder.appending(path: "\(stamp)/BeeHiveMacros-tool")
        if !files.isExecutableFile(atPath: copy.path) {
            do {
                // Copies of earlier macro builds: their expansions are recompiled away by this one.
                for old in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] where old != stamp {
                    try files.removeItem(at: folder.appending(path: old))
                }
                try files.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                let partial = copy.deletingLastPathComponent().appending(path: "BeeHiveMacros-tool.partial")
                try? files.removeItem(at: partial)
                // A hard link where it can: the linker writes a rebuilt macro as a new file, so the link keeps
                // the bytes it was made with.
                do { try files.linkItem(at: built, to: partial) } catch { try files.copyItem(at: built, to: partial) }
                try files.moveItem(at: partial, to: copy)
            } catch {
                throw Failure(description: "cannot copy the macro plugin \(built.path) to \(copy.path): \(error)")
            }
        }
        return (["-Xswiftc", "-load-plugin-executable", "-Xswiftc", "\(copy.path)#BeeHiveMacros"],
                ["BEEHIVE_PREBUILT_MACROS": "1"])
    }

    /// Copies what a build produced, its ELF files and resource bundles, without the objects and modules beside
    /// them; the executables find their libraries and bundles beside them, as in the build folder. The folder
    /// also holds the other fixtures' products, as their last builds left them. The fixture's own products
    /// (`own`) and every other ELF file this build wrote (since `started`, its dependencies' libraries) must have
    /// been linked by `linker`: lld names itself in `.comment`, gold does not.
    private static func copyProducts(
        from built: URL, to products: URL, linkedBy linker: Linker, checking own: Set<String>, since started: Date
    ) throws(Failure) {
        let files = FileManager.default
        var elfFiles: [URL] = []
        do {
            if files.fileExists(atPath: products.path) { try files.removeItem(at: products) }
            try files.createDirectory(at: products, withIntermediateDirectories: true)
            for name in try files.contentsOfDirectory(atPath: built.path) {
                let item = built.appending(path: name)
                var isDirectory: ObjCBool = false
                guard files.fileExists(atPath: item.path, isDirectory: &isDirectory) else { continue }
                let elf = !isDirectory.boolValue && isELF(item)
                guard elf || (isDirectory.boolValue && name.hasSuffix(".resources")) else { continue }
                try files.copyItem(at: item, to: products.appending(path: name))
                let modified = try files.attributesOfItem(atPath: item.path)[.modificationDate] as? Date
                if elf, own.contains(name) || modified.map({ $0 >= started }) == true { elfFiles.append(item) }
            }
        } catch {
            throw Failure(description: "cannot copy the products of \(built.path) to \(products.path): \(error)")
        }
        guard let readelf = SystemTools.find("readelf") else {
            throw Failure(description: "readelf is not on PATH; scripts/install-deps installs it")
        }
        if let missing = own.first(where: { name in !elfFiles.contains { $0.lastPathComponent == name } }) {
            throw Failure(description: "the build of \(products.path) produced no \(missing) in \(built.path)")
        }
        for file in elfFiles {
            let comment = try run(readelf, ["-p", ".comment", file.path]).standardOutput
            guard comment.contains("Linker: LLD") == (linker == .lld) else {
                throw Failure(description: "\(file.path) was not linked by \(linker): its manifest must turn BEEHIVE_LINKER into a link setting")
            }
        }
    }

    /// The file names of the package's executable and dynamic library products, from `swift package describe`.
    private static func productFiles(
        of package: URL, scratch: URL, environment: [String: String]
    ) throws(Failure) -> Set<String> {
        let described = try run(
            swiftExecutable,
            ["package", "--package-path", package.path, "--scratch-path", scratch.path, "describe", "--type", "json"],
            environment: environment)
        guard described.status == 0,
            let json = try? JSONSerialization.jsonObject(with: Data(described.standardOutput.utf8)),
            let products = (json as? [String: Any])?["products"] as? [[String: Any]]
        else { throw Failure(description: "cannot list the products of \(package.path): \(described.output)") }
        var names: Set<String> = []
        for product in products {
            guard let name = product["name"] as? String, let type = product["type"] as? [String: Any] else { continue }
            if type["executable"] != nil { names.insert(name) }
            if (type["library"] as? [String])?.contains("dynamic") == true { names.insert("lib\(name).so") }
        }
        return names
    }

    private static func isELF(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x7f, 0x45, 0x4c, 0x46])
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
