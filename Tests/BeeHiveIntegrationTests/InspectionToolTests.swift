import Foundation
import Testing

/// `scripts/readelf-annotations` and `beehive inspect`, run on fixture builds.
@Suite(.timeLimit(.minutes(60)))
struct InspectionToolTests {
    static let shopKitRecords = [
        ("beehive_mods", "beehive:1|module|ShopKit.ShopModule"),
        ("beehive_mods", "beehive:1|module|ShopKit.BasketModule|level=basic|priority=100|async=1"),
        ("beehive_mods", "beehive:1|module|ShopKit.Detail"),
        ("beehive_services", "beehive:1|service|ShopKit.CartProtocol|ShopKit.CartService"),
        ("beehive_services", "beehive:1|service|ShopKit.PaymentProtocol|ShopKit.PaymentService|scope=named|name=checkout"),
        ("beehive_routes", "beehive:1|route|/shop/item/:id|ShopKit.ItemHandler"),
        ("beehive_routes", "beehive:1|route|/shop/cart|ShopKit.CartHandler|scheme=shop|priority=5"),
        ("beehive_routes", "beehive:1|target|Basket|ShopKit.BasketTarget"),
    ]

    static let script = FixtureBuilder.repositoryRoot.appending(path: "scripts/readelf-annotations")

    /// The `beehive` executable of this package's build, next to the test bundle.
    static func beehive() throws -> URL {
        let bundle = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        let executable = bundle.deletingLastPathComponent().appending(path: "beehive")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw FixtureBuilder.Failure(description: "no beehive executable next to \(bundle.path); run swift build first")
        }
        return executable
    }

    // MARK: scripts/readelf-annotations

    @Test func scriptPrintsOneLinePerRecord() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let output = try FixtureBuilder.run(Self.script, [build.product("libShopKit.so").path])
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty)
        #expect(output.standardOutput == Self.shopKitRecords.map { "\($0.0)\t\($0.1)\n" }.joined())
    }

    @Test func scriptPrefixesFilesAndSkipsUnannotatedOnes() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .lld)
        let files = ["libOnlyServices.so", "libPlain.so", "host"].map { build.product($0).path }
        let output = try FixtureBuilder.run(Self.script, files)
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty, "no readelf warnings for sections a file does not have")
        let lines = output.standardOutput.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.allSatisfy { $0.count == 3 })
        #expect(lines.filter { $0[0] == files[0] }.map { $0[1] } == ["beehive_services", "beehive_services"])
        #expect(!lines.contains { $0[0] == files[1] })
        #expect(lines.filter { $0[0] == files[2] }.count == 4)
    }

    @Test func scriptShowsMalformedRecordsAsStoredAndFailsOnUnreadableFiles() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let malformed = try FixtureBuilder.run(Self.script, [build.product("libMalformed.so").path])
        #expect(malformed.standardOutput.split(separator: "\n").count == 10)
        #expect(malformed.standardOutput.contains("beehive_routes\thello world\n"))
        let missing = try FixtureBuilder.run(Self.script, ["/nonexistent/libNothing.so"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("/nonexistent/libNothing.so"))
    }

    // MARK: beehive inspect

    @Test func inspectTableListsEveryRecord() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .gold)
        let library = build.product("libShopKit.so").path
        let output = try FixtureBuilder.run(try Self.beehive(), ["inspect", library, build.product("libPlain.so").path])
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["FILE", "SECTION", "OFFSET", "KIND", "RECORD"])
        let rows = lines.dropFirst().filter { $0.hasPrefix(library) }
        #expect(rows.count == 8)
        for (row, expected) in zip(rows, Self.shopKitRecords) {
            #expect(row.contains(" \(expected.0) ") && row.hasSuffix(expected.1))
        }
        #expect(lines.last == "\(build.product("libPlain.so").path): no BeeHive annotations")
    }

    struct InspectReport: Decodable {
        struct File: Decodable {
            let file: String
            let readable: Bool
            let annotated: Bool
            let buildID: String?
        }

        struct Record: Decodable {
            let file: String
            let section: String
            let offset: Int
            let kind: String
            let record: String
            let fields: [String: FieldValue]
        }

        struct Diagnostic: Decodable {
            let file: String
            let section: String?
            let record: String?
            let kind: String
            let severity: String
            let message: String
        }

        let files: [File]
        let records: [Record]
        let diagnostics: [Diagnostic]
    }

    enum FieldValue: Decodable, Equatable {
        case string(String), integer(Int), boolean(Bool), strings([String]), null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .boolean(value) }
            else if let value = try? container.decode(Int.self) { self = .integer(value) }
            else if let value = try? container.decode([String].self) { self = .strings(value) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    @Test func inspectJSONHasRecordsWithParsedFields() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .lld)
        let library = build.product("libShopKit.so").path
        let output = try FixtureBuilder.run(try Self.beehive(), ["inspect", "--json", library])
        #expect(output.status == 0)
        let report = try JSONDecoder().decode(InspectReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.files.map(\.file) == [library])
        #expect(report.files.first?.annotated == true && report.files.first?.readable == true && report.files.first?.buildID != nil)
        #expect(report.records.map { "\($0.section) \($0.record)" } == Self.shopKitRecords.map { "\($0.0) \($0.1)" })
        #expect(report.records.allSatisfy { $0.file == library })
        #expect(report.diagnostics.isEmpty)
        let basket = try #require(report.records.first { $0.record.contains("BasketModule") })
        #expect(basket.kind == "module")
        #expect(basket.fields == ["type": .string("ShopKit.BasketModule"), "level": .string("basic"), "priority": .integer(100), "async": .boolean(true), "depends": .strings([]), "ondemand": .boolean(false)])
        let payment = try #require(report.records.first { $0.record.contains("PaymentService") })
        #expect(payment.fields == ["protocol": .string("ShopKit.PaymentProtocol"), "type": .string("ShopKit.PaymentService"), "scope": .string("named"), "name": .string("checkout")])
        let cart = try #require(report.records.first { $0.record.contains("/shop/cart") })
        #expect(cart.fields == ["pattern": .string("/shop/cart"), "type": .string("ShopKit.CartHandler"), "scheme": .string("shop"), "priority": .integer(5)])
        let item = try #require(report.records.first { $0.record.contains("/shop/item") })
        #expect(item.fields["scheme"] == .null)
        let target = try #require(report.records.first { $0.kind == "target" })
        #expect(target.fields == ["name": .string("Basket"), "type": .string("ShopKit.BasketTarget")])
    }

    @Test func inspectJSONReportsDiagnosticsAndExitsZeroForReadableFiles() throws {
        let build = try FixtureBuilder.build(FixtureHost.package, .release, linker: .lld)
        let folder = try FixtureHost.temporaryDirectory("inspect")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stripped = try SystemTools.copy(build.product("libShopKit.so"), into: folder)
        try SystemTools.run("llvm-objcopy", ["--strip-sections", stripped.path])
        let malformed = build.product("libMalformed.so").path
        let output = try FixtureBuilder.run(try Self.beehive(), ["inspect", "--json", malformed, stripped.path])
        #expect(output.status == 0)
        let report = try JSONDecoder().decode(InspectReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.records.map(\.record) == ["beehive:1|module|Malformed.GoodModule"])
        #expect(report.diagnostics.filter { $0.file == malformed }.map(\.kind).sorted() == [
            "invalidUTF8", "malformedRecord", "malformedRecord", "malformedRecord", "malformedRecord", "malformedRecord",
            "misplacedRecord", "oversizedRecord", "unknownVersion",
        ])
        #expect(report.diagnostics.filter { $0.file == stripped.path }.map(\.kind) == ["sectionHeadersMissing"])
        #expect(report.files.map(\.annotated) == [true, true], "the note survives --strip-sections")
    }

    /// Keys documented as "string or null" are written as null, not left out.
    @Test func inspectJSONWritesNullsForAbsentValues() throws {
        let json = try FixtureBuilder.run(try Self.beehive(), ["inspect", "--json", "/etc/hostname"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: [[String: Any]]]
        let file = try #require(object?["files"]?.first)
        #expect(Set(file.keys) == ["file", "readable", "annotated", "buildID", "interface", "incompatibility", "swiftModules", "swiftToolchain"])
        #expect(file["buildID"] is NSNull && file["interface"] is NSNull && file["incompatibility"] is NSNull)
        let diagnostic = try #require(object?["diagnostics"]?.first)
        #expect(Set(diagnostic.keys) == ["file", "section", "record", "kind", "severity", "message"])
        #expect(diagnostic["section"] is NSNull && diagnostic["record"] is NSNull)
    }

    /// The CLI spellings: `lint FILE... --inputs OBJ...` and `graph --format mermaid FILE...`.
    @Test func lintInputsAndGraphCommandLines() throws {
        let beehive = try Self.beehive()
        let lint = try FixtureBuilder.run(beehive, ["lint", "/nonexistent/app", "--inputs", "/nonexistent/main.o", "/etc/hostname"])
        #expect(lint.status == 1)
        #expect(lint.standardOutput.contains("/nonexistent/app: error: cannot read the object file"))
        #expect(lint.standardOutput.contains("/nonexistent/main.o: error: cannot read its symbols"))
        #expect(lint.standardOutput.contains("/etc/hostname: error: cannot read its symbols and Swift type metadata: neither an ELF object nor a static archive"))
        let graph = try FixtureBuilder.run(beehive, ["graph", "--format", "mermaid", "/etc/hostname"])
        #expect(graph.status == 0)
        #expect(graph.standardOutput == "flowchart LR\n")
    }

    @Test func inspectFailsOnlyForUnreadableFiles() throws {
        let beehive = try Self.beehive()
        let build = try FixtureBuilder.build(FixtureHost.package, .debug, linker: .gold)
        let output = try FixtureBuilder.run(beehive, ["inspect", build.product("libShopKit.so").path, "/nonexistent/libNothing.so"])
        #expect(output.status != 0)
        #expect(output.standardOutput.contains("/nonexistent/libNothing.so: error: cannot read the object file"))
        #expect(output.standardOutput.contains("ShopKit.ShopModule"), "readable files are still listed")
        let json = try FixtureBuilder.run(beehive, ["inspect", "--json", "/etc/hostname"])
        #expect(json.status != 0)
        let report = try JSONDecoder().decode(InspectReport.self, from: Data(json.standardOutput.utf8))
        #expect(report.files.map(\.readable) == [false])
        #expect(report.diagnostics.map(\.kind) == ["notELF"])
    }
}
