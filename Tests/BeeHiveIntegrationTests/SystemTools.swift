import BeeHiveLocks
import Foundation

/// The system tools the end-to-end tests drive (readelf, strip, llvm-objcopy, strace, the C compiler), and C
/// plugins compiled with the system C compiler. Compiled plugins are cached for the test run, like fixture builds.
enum SystemTools {
    /// The first executable of that name on PATH.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func require(_ name: String) throws -> URL {
        guard let tool = find(name) else {
            throw FixtureBuilder.Failure(description: "\(name) is not on PATH; scripts/install-deps installs it")
        }
        return tool
    }

    /// Runs a tool and returns its standard output; a non-zero exit is a failure.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> String {
        let output = try FixtureBuilder.run(try require(name), arguments)
        guard output.status == 0 else {
            throw FixtureBuilder.Failure(description: "\(name) \(arguments.joined(separator: " ")) failed:\n\(output.output)")
        }
        return output.standardOutput
    }

    /// The libraries an ELF file needs, in the order of its dynamic section.
    static func neededLibraries(_ file: URL) throws -> [String] {
        try run("readelf", ["-d", file.path]).split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else {
                return nil
            }
            return String(line[line.index(after: open)..<close])
        }
    }

    struct CLibraryKey: Hashable {
        let source: String
        let defines: [String]
        let buildID: Bool
    }

    /// `Locked` rather than `Mutex`: ThreadSanitizer cannot see `Mutex`'s contended wait on Linux and reports
    /// tests that build plugins at once as racing.
    private static let libraries = Locked<[CLibraryKey: URL]>([:])
    /// Beside the sources, gitignored like the fixture packages' build folders; rebuilt once per test run.
    private static let librariesFolder = FixtureBuilder.fixturesRoot.appending(path: "CPlugins/.build-c-plugins")

    /// Compiles Tests/Fixtures/CPlugins/`source` into a shared library with the system C compiler: unlike
    /// anything swiftc links, it does not register with the Swift runtime, so it can really be unloaded.
    static func cPlugin(_ source: String, defines: [String] = [], buildID: Bool = true) throws -> URL {
        let key = CLibraryKey(source: source, defines: defines, buildID: buildID)
        return try libraries.withLock { built in
            if let library = built[key] { return library }
            try FileManager.default.createDirectory(at: librariesFolder, withIntermediateDirectories: true)
            var name = ([source.replacingOccurrences(of: ".c", with: "")] + defines + (buildID ? [] : ["nobuildid"]))
                .joined(separator: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" }
            // A file name has at most 255 bytes: a long one keeps its start and an FNV-1a hash of the whole.
            if name.utf8.count > 200 {
                let hash = name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
                name = String(name.prefix(150)) + "-" + String(hash, radix: 16)
            }
            let library = librariesFolder.appending(path: "lib\(name).so")
            var arguments = [
                "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror",
                "-I", FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include").path,
                FixtureBuilder.fixturesRoot.appending(path: "CPlugins/\(source)").path, "-o", library.path,
            ]
            arguments += defines.map { "-D\($0)" }
            if !buildID { arguments.append("-Wl,--build-id=none") }
            try run(find("cc") != nil ? "cc" : "clang", arguments)
            built[key] = library
            return library
        }
    }

    /// Compiles Tests/Fixtures/CPlugins/`source` into a program of the system C compiler, linked with libdl only.
    static func cProgram(_ source: String) throws -> URL {
        try FileManager.default.createDirectory(at: librariesFolder, withIntermediateDirectories: true)
        let program = librariesFolder.appending(path: source.replacingOccurrences(of: ".c", with: ""))
        try run(find("cc") != nil ? "cc" : "clang", [
            "-O2", "-Wall", "-Wextra", "-Werror",
            "-I", FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include").path,
            FixtureBuilder.fixturesRoot.appending(path: "CPlugins/\(source)").path, "-o", program.path, "-ldl",
        ])
        return program
    }

    /// A copy of `file` in `directory`, for tests that modify or replace it.
    static func copy(_ file: URL, into directory: URL, as name: String? = nil) throws -> URL {
        let destination = directory.appending(path: name ?? file.lastPathComponent)
        try FileManager.default.copyItem(at: file, to: destination)
        return destination
    }

    /// How many nodes and edges Graphviz's `dot` lays out for a DOT text; reading it must print no warning.
    static func graphvizLayout(of dot: String) throws -> (nodes: Int, edges: Int) {
        let directory = try FixtureHost.temporaryDirectory("graph")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "graph.dot")
        try dot.write(to: input, atomically: true, encoding: .utf8)
        // -Tplain lists each laid-out node and edge on a line of its own.
        let output = try FixtureBuilder.run(try require("dot"), ["-Tplain", input.path])
        guard output.status == 0, output.standardError.isEmpty else {
            throw FixtureBuilder.Failure(description: "dot (apt package graphviz) did not read the graph:\n\(output.output)\n\(dot)")
        }
        let lines = output.standardOutput.split(separator: "\n")
        return (lines.filter { $0.hasPrefix("node ") }.count, lines.filter { $0.hasPrefix("edge ") }.count)
    }
}
