@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Glibc
import Testing

/// Service configuration files are held to what records are held to.
@Suite struct ConfigurationStrictnessTests {
    private func refusal(_ text: String, format: ServiceConfigurationFormat = .json) -> String? {
        let manager = ServiceManager()
        do {
            try manager.registerServices(from: Data(text.utf8), format: format, source: "services.\(format.rawValue)")
            return nil
        } catch {
            #expect(manager.registrations.isEmpty)
            return error.description
        }
    }

    /// Without a name a named registration would answer every name; the record parser refuses this as well.
    @Test func namedScopeWithoutANameIsRefused() {
        let message = refusal(#"[{"service": "A.B", "impl": "A.C", "scope": "named"}]"#)
        #expect(message?.contains("entry 0 has scope 'named' but no 'name'") == true, "\(message ?? "accepted")")
    }

    @Test(arguments: [
        (#"[{"service": true, "impl": "A.C"}]"#, "entry 0: 'service' must be a non-empty string"),
        (#"[{"service": "A.B", "impl": "A.C", "name": 5}]"#, "entry 0: 'name' must be a non-empty string"),
        (#"[{"service": "A.B", "impl": "A.C", "scope": ["singleton"]}]"#, "entry 0: 'scope' must be a non-empty string"),
    ])
    func valuesOfTheWrongTypeAreRefused(text: String, expected: String) {
        let message = refusal(text)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
    }

    @Test(arguments: ["", " \n\t\n"])
    func emptyOrWhitespaceFileSaysSo(text: String) {
        for format in ServiceConfigurationFormat.allCases {
            let message = refusal(text, format: format)
            #expect(message?.contains(text.isEmpty ? "the file is empty" : "only whitespace") == true, "\(message ?? "accepted")")
        }
    }

    @Test func boolInAPlistIsNotAString() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict>
              <key>service</key><string>A.B</string><key>impl</key><true/>
            </dict></array></plist>
            """
        let message = refusal(plist, format: .plist)
        #expect(message?.contains("entry 0: 'impl' must be a non-empty string") == true, "\(message ?? "accepted")")
    }

    /// A NUL or another control character names no type; the runtime's lookup would misread it.
    @Test(arguments: ["App.Cart\\u0000Service", "$\\u0000\\u0000Shop.Cart", "App.\\u0001Service", "App.Service\\n"])
    func controlCharactersInANameAreRefused(escaped: String) {
        let message = refusal(#"[{"service": ""# + escaped + #"", "impl": "A.C"}]"#)
        #expect(message?.contains("entry 0: 'service' holds the control character U+00") == true, "\(message ?? "accepted")")
    }

    /// The configuration-file fuzzer's crash: a protocol name starting with `$` reached the runtime's lookup in
    /// `validate()`. Both names are now simply not found.
    @Test func aNameStartingWithADollarSignIsAnUnknownService() throws {
        let manager = ServiceManager()
        try manager.registerServices(from: Data(#"[{"service": "$", "impl": "$0"}]"#.utf8), format: .json, source: "services.json")
        #expect(manager.validate().map(\.kind) == [
            .implementationNotFound(service: "$", implementation: "$0"),
            .unknownService(service: "$", source: .configuration(path: "services.json", entry: 0)),
        ])
    }

    /// A misspelt protocol in a file is caught by `validate()`, naming the entry it came from.
    @Test func validateReportsAProtocolNameThatNamesNothing() throws {
        let manager = ServiceManager()
        let json = """
            [{"service": "BeeHiveServicesTests.HomeServce", "impl": "BeeHiveServicesTests.HomeServiceImpl"},
             {"service": "BeeHiveServicesTests.HomeService", "impl": "BeeHiveServicesTests.HomeServiceImpl"}]
            """
        try manager.registerServices(from: Data(json.utf8), format: .json, source: "services.json")
        let errors = manager.validate()
        #expect(errors.map(\.kind) == [
            .unknownService(service: "BeeHiveServicesTests.HomeServce", source: .configuration(path: "services.json", entry: 0))
        ])
        #expect(errors.first?.description.contains("services.json entry 0") == true)
    }

    @Test(.timeLimit(.minutes(10)))
    func fifoIsRefusedWithoutBlocking() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appending(path: "services.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = #expect(throws: ServiceError.self) { try ServiceManager().registerServices(fromFileAt: fifo) }
        #expect(error?.description.contains("FIFO") == true)
    }
}
