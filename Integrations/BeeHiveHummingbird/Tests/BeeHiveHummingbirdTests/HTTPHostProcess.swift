import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture host (Fixtures/HTTPHost) running as a child process, with a plugins folder of its own, and a
/// real HTTP client talking to it over loopback.
final class HTTPHostProcess: Sendable {
    /// What the host printed so far.
    final class Output: Sendable {
        let text = Mutex("")
    }

    /// Where SwiftPM put this test binary, the host and the plugins: they are built together.
    static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let folder: URL
    let plugins: URL
    let port: Int
    private let process: Process
    private let output: Output
    private let session: URLSession

    /// Makes a plugins folder holding `plugins` (file names in the products folder, or `libBroken.so`), starts
    /// the host on it and waits until it serves.
    init(plugins names: [String]) async throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "beehive-http-\(UUID().uuidString)")
        plugins = folder.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(plugins.path, 0o755)
        for name in names { try Self.install(name, into: plugins) }

        let output = Output()
        self.output = output
        let process = Process()
        process.executableURL = Self.products.appending(path: "http-fixture-host")
        var environment = ProcessInfo.processInfo.environment
        environment["BEEHIVE_PLUGIN_PATH"] = plugins.path
        environment["XDG_CACHE_HOME"] = folder.appending(path: "cache").path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        self.process = process

        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)

        let line = try await Self.waitForLine(in: output, process: process, startingWith: "listening ")
        port = try #require(Int(line.dropFirst("listening ".count)))
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Copies a built plugin into `folder` with the modes the strict trust policy wants; `libBroken.so` is
    /// compiled from Fixtures/Broken against a library that is deleted right after, so it cannot load.
    static func install(_ name: String, into folder: URL) throws {
        let destination = folder.appending(path: name)
        if name == "libBroken.so" {
            let scratch = FileManager.default.temporaryDirectory.appending(path: "beehive-http-broken-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let gone = scratch.appending(path: "gone.c")
            try "int gone_function(void) { return 1; }\n".write(to: gone, atomically: true, encoding: .utf8)
            try run("cc", ["-shared", "-fPIC", "-o", scratch.appending(path: "libgone.so").path, gone.path])
            try run("cc", [
                "-shared", "-fPIC", "-I", repositoryRoot.appending(path: "CSectionShim/include").path,
                repositoryRoot.appending(path: "Integrations/BeeHiveHummingbird/Tests/Fixtures/Broken/broken.c").path,
                "-L", scratch.path, "-lgone", "-o", destination.path,
            ])
        } else {
            try FileManager.default.copyItem(at: products.appending(path: name), to: destination)
        }
        chmod(destination.path, 0o755)
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " ")) failed")
    }

    var lines: [String] {
        output.text.withLock { $0 }.split(separator: "\n").map(String.init)
    }

    /// The `event ...` lines the host printed so far, without the prefix.
    var events: [String] {
        lines.filter { $0.hasPrefix("event ") }.map { String($0.dropFirst("event ".count)) }
    }

    func waitForEvent(_ event: String) async throws {
        _ = try await Self.waitForLine(in: output, process: process, startingWith: "event \(event)")
    }

    private static func waitForLine(
        in output: Output, process: Process, startingWith prefix: String
    ) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = output.text.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = output.text.withLock { $0 }
        Issue.record("no line starting with \(prefix) from the host; it printed:\n\(text)")
        throw CancellationError()
    }

    struct Answer: Sendable {
        let status: Int
        let body: String
        let contentType: String?
        let allow: String?
    }

    /// One request over loopback.
    func request(_ path: String, method: String = "GET") async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        let session = session
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                    return
                }
                let response = response as! HTTPURLResponse
                continuation.resume(
                    returning: Answer(
                        status: response.statusCode, body: String(decoding: data ?? Data(), as: UTF8.self),
                        contentType: response.value(forHTTPHeaderField: "Content-Type"),
                        allow: response.value(forHTTPHeaderField: "Allow")))
            }.resume()
        }
    }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends SIGTERM and waits for the host to exit; returns its exit status.
    func terminate() async throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning {
            try #require(ContinuousClock.now < deadline, "the host did not exit after SIGTERM")
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }
}
