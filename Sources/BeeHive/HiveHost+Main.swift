@_spi(BeeHiveInternals) import BeeHiveRegistry
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension HiveHost {
    /// Runs a command-line program and exits: starts the modules, runs `body` with the host's hive, stops the
    /// modules (awaiting the asynchronous hooks), then exits with status 0. If the start, `body` or the stop
    /// throws, the modules already set up are torn down, one line `error: …` goes to standard error, and the
    /// process exits with status 1, rather than the crash that an error escaping top-level code gives.
    ///
    ///     let host = HiveHost()
    ///     host.main { hive in
    ///         try hive.open("/greet/Linux")
    ///     }
    ///
    /// It is synchronous, so call it without `await` from top-level code: the main thread then serves the
    /// main actor while `body` runs. Being synchronous, it also refuses a process with two Swift runtimes
    /// (`HiveError.twoSwiftRuntimes`) before anything asynchronous runs, since there the first `await`
    /// crashes. For a program that runs until SIGTERM, use `runUntilTerminated(whenStarted:)`; in a server,
    /// `serve(untilShutdown:)`.
    public func main(_ body: @escaping @Sendable (Hive) async throws -> Void = { _ in }) -> Never {
        if let executable = SwiftRuntime.executableWithSecondRuntime {
            exitAfterFailure(HiveError.twoSwiftRuntimes(executable: executable))
        }
        Task {
            await self.run(body)
            exit(0)
        }
        dispatchMain()
    }

    private func run(_ body: @Sendable (Hive) async throws -> Void) async {
        do {
            try await start()
        } catch {
            try? await shutdown()
            exitAfterFailure(error)
        }
        do {
            try await body(hive)
        } catch {
            try? await shutdown()
            exitAfterFailure(error)
        }
        do {
            try await shutdown()
        } catch {
            exitAfterFailure(error)
        }
    }

    private func exitAfterFailure(_ error: any Error) -> Never {
        logger.error("the program failed", metadata: ["error": "\(error)"])
        let line = Array("error: \(Self.oneLine(error))\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(1)
    }

    /// A multi-line description (a list of problems) on one line, its items separated by spaces.
    static func oneLine(_ error: any Error) -> String {
        "\(error)".split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(separator: " ")
    }
}
