import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveModules
import Foundation
import Glibc
import Testing

/// Module configuration files: strict types, warnings for unknown top-level keys, clear messages for empty and
/// special files.
@Suite struct ConfigurationFileTests {
    private func refusal(_ contents: String, path: String = "/etc/app/modules.json") -> String? {
        let (manager, _) = makeManager()
        do {
            try manager.registerModules(fromConfiguration: Data(contents.utf8), path: path)
            return nil
        } catch {
            #expect(manager.modules.isEmpty)
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","moduleLevel":true}]}"#, "moduleLevel 'true'"),
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","modulePriority":true}]}"#, "modulePriority 'true'"),
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","modulePriority":1.5}]}"#, "moduleClasses[0].modulePriority"),
        (#"{"moduleClasses":[{"moduleClass":7}]}"#, "needs a 'moduleClass' string"),
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","moduleAsync":2}]}"#, "moduleAsync '2'"),
        (#"{"moduleClasses":{"moduleClass":"BeeHiveModulesTests.AlphaModule"}}"#, "'moduleClasses' must be an array"),
        (#"["BeeHiveModulesTests.AlphaModule"]"#, "the top level must be a dictionary"),
        (#"{"moduleClasses":[{"moduleClass":"$\u0000Alpha"}]}"#, "'moduleClass' that holds the control character U+0000"),
    ])
    func valuesOfTheWrongTypeAreRefused(contents: String, expected: String) {
        let message = refusal(contents)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        #expect(message?.contains("/etc/app/modules.json") == true)
    }

    @Test func booleanLevelInAPlistIsRefused() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>moduleClasses</key><array>
              <dict><key>moduleClass</key><string>BeeHiveModulesTests.AlphaModule</string><key>moduleLevel</key><true/></dict>
            </array></dict></plist>
            """
        let message = refusal(plist, path: "levels.plist")
        #expect(message?.contains("moduleLevel 'true'") == true, "\(message ?? "accepted")")
    }

    @Test(arguments: ["", "   \n\t  \n"])
    func emptyOrWhitespaceFileSaysSo(contents: String) {
        let message = refusal(contents)
        #expect(message?.contains(contents.isEmpty ? "the file is empty" : "only whitespace") == true, "\(message ?? "accepted")")
    }

    @Test func unknownTopLevelKeysAreWarnings() throws {
        let diagnostics = Locked<[ModuleDiagnostic]>([])
        let (manager, _) = makeManager(onDiagnostic: { diagnostic in diagnostics.withLock { $0.append(diagnostic) } })
        let json = #"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule"}],"moduleClass":"x","version":2}"#
        let warnings = try manager.registerModules(fromConfiguration: Data(json.utf8), path: "/etc/app/modules.json")
        #expect(manager.modules.map(\.name) == ["BeeHiveModulesTests.AlphaModule"])
        #expect(warnings.map(\.description) == [
            "/etc/app/modules.json: unknown top-level key 'moduleClass' ignored (a module list has 'moduleClasses' only; misspelt?)",
            "/etc/app/modules.json: unknown top-level key 'version' ignored (a module list has 'moduleClasses' only; misspelt?)",
        ])
        #expect(warnings.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.withLock { $0.count } == 2)
    }

    /// A FIFO without a writer would block `Data(contentsOf:)` forever.
    @Test(.timeLimit(.minutes(10)))
    func specialFilesAreRefusedWithoutBlocking() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appending(path: "modules.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "FIFO"), (directory.path, "directory"), ("/dev/zero", "device")] {
            let (manager, _) = makeManager()
            #expect {
                try manager.registerModules(fromConfigurationFileAt: path)
            } throws: { error in
                "\(error)".contains(path) && "\(error)".contains(kind)
            }
        }
    }

    /// Levels and priorities given as strings, as BeeHive's plists have them, still read.
    @Test func numbersAsStringsStillRead() throws {
        let (manager, _) = makeManager()
        let json = #"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","moduleLevel":"0","modulePriority":" 7 ","moduleAsync":"yes"}]}"#
        try manager.registerModules(fromConfiguration: Data(json.utf8), path: "strings.json")
        let module = try #require(manager.modules.first)
        #expect(module.level == .basic && module.priority == 7 && module.isAsync)
    }
}
