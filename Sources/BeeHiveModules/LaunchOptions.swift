import Foundation

/// How the process was launched: BeeHive's `launchOptions`, for a command-line process.
public struct LaunchOptions: Sendable, Hashable {
    public var arguments: [String]
    public var environment: [String: String]

    public init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// This process's arguments and environment.
    public static var current: LaunchOptions {
        LaunchOptions(arguments: ProcessInfo.processInfo.arguments, environment: ProcessInfo.processInfo.environment)
    }
}
