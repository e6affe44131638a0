import Foundation

/// Runs the RegistryHost fixture's executables and decodes what they print.
enum FixtureHost {
    static let package = "RegistryHost"

    static func run<Output: Decodable>(
        _ build: FixtureBuilder.Build, executable: String = "host", _ arguments: [String] = [],
        environment: [String: String] = [:], as type: Output.Type = HostReport.self
    ) throws -> Output {
        try run(build.product(executable), arguments, environment: environment, as: type)
    }

    static func run<Output: Decodable>(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String] = [:],
        as type: Output.Type = HostReport.self
    ) throws -> Output {
        let output = try FixtureBuilder.run(executable, arguments, environment: environment)
        guard output.status == 0 else {
            throw FixtureBuilder.Failure(
                description: "\(executable.path) \(arguments.joined(separator: " ")) exited with \(output.status):\n\(output.output)")
        }
        do {
            return try JSONDecoder().decode(Output.self, from: Data(output.standardOutput.utf8))
        } catch {
            throw FixtureBuilder.Failure(description: "cannot decode the output of \(executable.path): \(error)\n\(output.output)")
        }
    }

    /// A scratch folder for one test, removed by the caller.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
