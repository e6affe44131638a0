import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shared objects the discovery benchmarks load: generated C sources with `BeeHiveMod` annotations (or none),
/// built with clang on first use into `Benchmarks/.build/bench-fixtures` and reused while their source is
/// unchanged. Nothing generated is committed.
public enum Fixtures {
    /// The repository root, for `CSectionShim/include/beehive.h`.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let directory = repositoryRoot.appendingPathComponent("Benchmarks/.build/bench-fixtures")

    /// One object with `count` module annotations, `Bench.R000000` and up.
    public static func recordsLibrary(count: Int) -> String {
        var source = "#include <beehive.h>\n"
        source.reserveCapacity(32 * count)
        for index in 0..<count {
            source += "BeeHiveMod(Bench.R\(String(index).leftPadded(to: 6)))\n"
        }
        return sharedLibrary(named: "records-\(count)", source: source)
    }

    /// `count` distinct objects without annotations.
    public static func plainLibraries(count: Int) -> [String] {
        (0..<count).map { index in
            sharedLibrary(named: "plain-\(index)", source: "int bench_plain_\(index)(void) { return \(index); }\n")
        }
    }

    /// `count` distinct objects with `recordsEach` module annotations each (`Bench.O<object>R<record>`).
    public static func annotatedLibraries(count: Int, recordsEach: Int) -> [String] {
        (0..<count).map { object in
            var source = "#include <beehive.h>\n"
            for record in 0..<recordsEach { source += "BeeHiveMod(Bench.O\(object)R\(record))\n" }
            return sharedLibrary(named: "annotated-\(object)-\(recordsEach)", source: source)
        }
    }

    /// `count` distinct plugins, each with the route `/plugin<index>/:id` and the service record that
    /// `service(index)` writes (a `BeeHiveService(...)` line).
    public static func pluginLibraries(count: Int, service: (Int) -> String) -> [String] {
        (0..<count).map { index in
            let source = "#include <beehive.h>\n\(service(index))\nBeeHiveRoute(\"/plugin\(index)/:id\", Bench.PluginHandler\(index))\n"
            return sharedLibrary(named: "plugin-\(index)", source: source)
        }
    }

    /// Loads the objects with `dlopen`; they stay loaded for the life of the benchmark process.
    public static func load(_ paths: [String]) {
        for path in paths where dlopen(path, RTLD_NOW | RTLD_LOCAL) == nil {
            fatalError("cannot load \(path): \(String(cString: dlerror()))")
        }
    }

    /// The path of `<name>.so` built from `source`, building it when it is missing or its source changed.
    static func sharedLibrary(named name: String, source: String) -> String {
        let sourceURL = directory.appendingPathComponent("\(name).c")
        let libraryURL = directory.appendingPathComponent("\(name).so")
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: libraryURL.path),
            (try? String(contentsOf: sourceURL, encoding: .utf8)) == source
        {
            return libraryURL.path
        }
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            try source.write(to: sourceURL, atomically: true, encoding: .utf8)
        } catch {
            fatalError("cannot write \(sourceURL.path): \(error)")
        }
        let include = repositoryRoot.appendingPathComponent("CSectionShim/include").path
        let partial = libraryURL.path + ".partial"
        run(["clang", "-shared", "-fPIC", "-O1", "-I", include, sourceURL.path, "-o", partial])
        guard rename(partial, libraryURL.path) == 0 else { fatalError("cannot rename \(partial): \(errno)") }
        return libraryURL.path
    }

    /// Runs a build tool and stops the benchmark when it fails: a benchmark without its fixture means nothing.
    static func run(_ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            fatalError("cannot run \(arguments[0]): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            fatalError("\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
