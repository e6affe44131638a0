@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

@Suite struct PluginTests {
    @Test func missingLibraryIsATypedErrorNamingThePath() {
        #expect {
            try Plugin.load(atPath: "/nonexistent/libNoSuchPlugin.so")
        } throws: { error in
            guard let error = error as? PluginError else { return false }
            return error.path == "/nonexistent/libNoSuchPlugin.so" && error.operation == .load
                && error.description.contains("/nonexistent/libNoSuchPlugin.so") && !error.reason.isEmpty
        }
    }

    @Test func notALibraryIsATypedError() {
        #expect(throws: PluginError.self) { try Plugin.load(atPath: "/etc/hostname") }
    }
}

/// A plugin that needs a symbol no loaded library defines: built against another version of a library.
@Suite struct MissingSymbolTests {
    static func library(needing symbol: String) throws -> URL {
        let directory = try TestLibrary.temporaryDirectory()
        let file = directory.appending(path: "libneeds.so")
        // clang takes `$` in identifiers, so a C file can call a Swift symbol by its mangled name.
        let source = "extern void \(symbol)(void);\nvoid beehive_test_call(void) { \(symbol)(); }\n"
        try TestLibrary.write(try TestLibrary.build(source), to: file)
        return file
    }

    @Test func aMissingSwiftSymbolOfBeeHiveIsNamedInSwiftAndBlamesTheBeeHiveVersion() throws {
        let file = try Self.library(needing: "$s7BeeHive4HiveC12missingInAPIyyF")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect {
            try Plugin.load(atPath: file.path)
        } throws: { error in
            guard let error = error as? PluginError, error.kind == .missingSymbol else { return false }
            return error.description.contains("it needs BeeHive.Hive.missingInAPI() -> () ($s7BeeHive4HiveC12missingInAPIyyF)")
                && error.description.contains("rebuild it against the host's BeeHive")
        }
    }

    @Test func aMissingCSymbolBlamesTheLibrariesTheHostShips() throws {
        let file = try Self.library(needing: "beehive_test_missing_function")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect {
            try Plugin.load(atPath: file.path)
        } throws: { error in
            guard let error = error as? PluginError, error.kind == .missingSymbol else { return false }
            return error.description.contains("it needs beehive_test_missing_function, which no library loaded")
                && error.description.contains("rebuild it against the libraries the host ships")
        }
    }

    @Test func symbolsAndModulesAreReadFromTheLoadersWords() {
        #expect(Plugin.undefinedSymbol(in: "/p/libx.so: undefined symbol: $s3Foo3barSiyF") == "$s3Foo3barSiyF")
        #expect(Plugin.undefinedSymbol(in: "/p/libx.so: cannot open shared object file: No such file or directory") == nil)
        #expect(SwiftDemangling.module(of: "$s15BeeHiveRegistry6PluginC") == "BeeHiveRegistry")
        #expect(SwiftDemangling.module(of: "$s99") == nil)
        #expect(SwiftDemangling.module(of: "$s999999999999999999999999Foo") == nil)
        #expect(SwiftDemangling.module(of: "plain_c_name") == nil)
        #expect(SwiftDemangling.demangle("plain_c_name") == nil)
    }
}
