@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Testing

@Suite struct ConfigurationTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>
            <dict>
                <key>service</key>
                <string>BeeHiveServicesTests.HomeService</string>
                <key>impl</key>
                <string>BeeHiveServicesTests.HomeServiceImpl</string>
            </dict>
            <dict>
                <key>service</key>
                <string>BeeHiveServicesTests.AccountService</string>
                <key>impl</key>
                <string>BeeHiveServicesTests.AccountServiceImpl</string>
                <key>scope</key>
                <string>singleton</string>
            </dict>
        </array>
        </plist>
        """

    static let json = """
        [
            {"service": "BeeHiveServicesTests.HomeService", "impl": "BeeHiveServicesTests.HomeServiceImpl",
             "scope": "named", "name": "main"},
            {"service": "BeeHiveServicesTests.AccountService", "impl": "BeeHiveServicesTests.AccountServiceImpl"}
        ]
        """

    @Test func beeHiveServicePlist() throws {
        let manager = ServiceManager()
        try manager.registerServices(from: Data(Self.plist.utf8), format: .plist, source: "BeeHive.bundle/BHService.plist")
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(try manager.resolve(AccountService.self) as AnyObject === manager.resolve(AccountService.self) as AnyObject)
        #expect(
            manager.registrations.map(\.source) == [
                .configuration(path: "BeeHive.bundle/BHService.plist", entry: 1),
                .configuration(path: "BeeHive.bundle/BHService.plist", entry: 0),
            ])
    }

    @Test func binaryPlist() throws {
        let entries: [[String: String]] = [["service": "BeeHiveServicesTests.HomeService", "impl": "BeeHiveServicesTests.HomeServiceImpl"]]
        let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0)
        let manager = ServiceManager()
        try manager.registerServices(from: data, format: .plist, source: "binary.plist")
        #expect(try manager.resolve(HomeService.self).title == "home")
    }

    @Test func json() throws {
        let manager = ServiceManager()
        try manager.registerServices(from: Data(Self.json.utf8), format: .json, source: "services.json")
        let main = try manager.resolve(HomeService.self, name: "main")
        #expect(try manager.resolve(HomeService.self, name: "main") === main)
        #expect(try manager.resolve(AccountService.self).user == "ann")
    }

    @Test func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plistPath = directory.appendingPathComponent("BHService.plist").path
        let jsonPath = directory.appendingPathComponent("services.JSON").path
        try Data(Self.plist.utf8).write(to: URL(fileURLWithPath: plistPath))
        try Data(Self.json.utf8).write(to: URL(fileURLWithPath: jsonPath))

        let fromPlist = ServiceManager()
        try fromPlist.registerServices(fromFileAt: plistPath)
        #expect(fromPlist.createService(HomeService.self)?.title == "home")
        #expect(fromPlist.registrations.first?.source == .configuration(path: plistPath, entry: 1))

        let fromJSON = ServiceManager()
        try fromJSON.registerServices(fromFileAt: jsonPath)
        #expect(fromJSON.createService(HomeService.self, name: "main")?.title == "home")
    }

    @Test(arguments: [
        ("{\"service\": \"A.B\"}", "the top level must be an array"),
        ("[{\"service\": \"A.B\"}]", "entry 0 has no 'impl'"),
        ("[{\"impl\": \"A.C\"}]", "entry 0 has no 'service'"),
        ("[{\"service\": \"A.B\", \"impl\": \"A.C\", \"sope\": \"singleton\"}]", "entry 0 has unknown key 'sope'"),
        ("[{\"service\": \"A.B\", \"impl\": \"A.C\"}, {\"service\": \"A.B\", \"impl\": \"A.C\", \"scope\": \"forever\"}]",
         "entry 1: unknown scope 'forever'"),
        ("[{\"service\": \"A.B\", \"impl\": 3}]", "entry 0: 'impl' must be a non-empty string"),
        ("[\"A.B\"]", "entry 0 is not a dictionary"),
        ("[{\"service\": ", "not a valid json file"),
    ])
    func badJSONIsRejectedWithTheEntry(text: String, reason: String) {
        let manager = ServiceManager()
        let error = #expect(throws: ServiceError.self) {
            try manager.registerServices(from: Data(text.utf8), format: .json, source: "bad.json")
        }
        #expect(error?.description.hasPrefix("service configuration bad.json: ") == true)
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(manager.registrations.isEmpty)
    }

    @Test func badPlistIsRejected() {
        let error = #expect(throws: ServiceError.self) {
            try ServiceManager().registerServices(from: Data("<plist><array>".utf8), format: .plist, source: "bad.plist")
        }
        #expect(error?.description.contains("bad.plist: not a valid plist file") == true)
    }

    @Test func unknownExtensionAndMissingFile() {
        let manager = ServiceManager()
        let extensionError = #expect(throws: ServiceError.self) { try manager.registerServices(fromFileAt: "/tmp/services.yaml") }
        #expect(extensionError?.description.contains("unknown file extension 'yaml'") == true)
        let missing = "/nonexistent/\(UUID().uuidString).plist"
        let readError = #expect(throws: ServiceError.self) { try manager.registerServices(fromFileAt: missing) }
        #expect(readError?.description.contains("\(missing): cannot read the file") == true)
    }
}
