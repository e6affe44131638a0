import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program and waits for it, for the start-up benchmark: `posix_spawn`, output to /dev/null.
public struct ChildProcess {
    public let path: String
    public let arguments: [String]
    private let environment: [String]

    /// - Parameter environment: variables set on top of this process's environment.
    public init(path: String, arguments: [String] = [], environment: [String: String] = [:]) {
        self.path = path
        self.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        self.environment = variables.map { "\($0.key)=\($0.value)" }
    }

    /// The program beside this executable (a product of the same package, in the same build folder).
    public static func sibling(named name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }

    /// Runs the program to its end and returns its exit status (128 + the signal if a signal ended it).
    @discardableResult
    public func run() -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { fatalError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { fatalError("waitpid failed for \(path): \(errno)") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
