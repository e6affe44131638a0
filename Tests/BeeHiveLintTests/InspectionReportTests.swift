import Foundation
import Glibc
import Testing

@testable import BeeHiveLint
import BeeHiveRegistry

@Suite struct InspectionReportTests {
    /// The report as the JSON objects `inspect --json` prints, keys and all.
    private func json(_ report: InspectionReport) throws -> [String: [[String: Any]]] {
        let data = try JSONEncoder().encode(report)
        let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        return try #require(object as? [String: [[String: Any]]])
    }

    /// A library built without a build-id and a path that is not a file: every documented key is present,
    /// with null where there is no value.
    @Test(.timeLimit(.minutes(10)))
    func everyDocumentedKeyIsWrittenWithNullForNoValue() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveService(Inspect.Proto, Inspect.Impl)
            BeeHiveRoute("/home", Inspect.Home)

            """).write()
        defer { unlink(path) }
        let document = try json(InspectionReport(files: [path, "/nonexistent/beehive-inspect"]))
        let files = try #require(document["files"])
        #expect(files.count == 2)
        for file in files {
            #expect(Set(file.keys) == ["file", "readable", "annotated", "buildID", "interface", "incompatibility", "swiftModules", "swiftToolchain"])
            #expect(file["incompatibility"] is NSNull)
        }
        #expect(files[0]["buildID"] is NSNull)
        #expect(files[0]["interface"] as? String == PluginIncompatibility.hex(PluginIncompatibility.hostInterface))
        #expect(files[1]["interface"] is NSNull)
        let diagnostics = try #require(document["diagnostics"])
        #expect(diagnostics.count == 1)
        #expect(Set(diagnostics[0].keys) == ["file", "section", "record", "kind", "severity", "message"])
        #expect(diagnostics[0]["section"] is NSNull && diagnostics[0]["record"] is NSNull)
        let records = try #require(document["records"])
        #expect(records.count == 2)
        let fields = records.compactMap { $0["fields"] as? [String: Any] }
        #expect(fields.count == 2)
        #expect(fields.contains { $0["name"] is NSNull && $0["scope"] as? String == "transient" })
        #expect(fields.contains { $0["scheme"] is NSNull && $0["pattern"] as? String == "/home" })
    }

    /// A module's dependencies are written as an array, empty for a module that names none.
    @Test(.timeLimit(.minutes(10)))
    func moduleDependenciesAreWrittenAsAnArray() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleDepends(Inspect.Shop, normal, 0, sync, "Inspect.Network,Inspect.Account")
            BeeHiveMod(Inspect.Network)

            """).write()
        defer { unlink(path) }
        let records = try #require(try json(InspectionReport(files: [path]))["records"])
        let fields = records.compactMap { $0["fields"] as? [String: Any] }
        #expect(fields.count == 2)
        for field in fields {
            #expect(Set(field.keys) == ["type", "level", "priority", "async", "depends", "ondemand"])
        }
        let shop = try #require(fields.first { $0["type"] as? String == "Inspect.Shop" })
        #expect(shop["depends"] as? [String] == ["Inspect.Network", "Inspect.Account"])
        let network = try #require(fields.first { $0["type"] as? String == "Inspect.Network" })
        #expect(network["depends"] as? [String] == [])
    }

    /// Whether a module is on-demand is written as a boolean, false for a module that does not say.
    @Test(.timeLimit(.minutes(10)))
    func onDemandIsWrittenAsABoolean() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleOnDemand(Inspect.Lazy, normal, 0, sync)
            BeeHiveMod(Inspect.Eager)

            """).write()
        defer { unlink(path) }
        let records = try #require(try json(InspectionReport(files: [path]))["records"])
        let fields = records.compactMap { $0["fields"] as? [String: Any] }
        #expect(fields.first { $0["type"] as? String == "Inspect.Lazy" }?["ondemand"] as? Bool == true)
        #expect(fields.first { $0["type"] as? String == "Inspect.Eager" }?["ondemand"] as? Bool == false)
    }

    /// Two records of one file declaring the same module or service name: discovery would report the second,
    /// and so does inspect, without loading the file.
    @Test(.timeLimit(.minutes(10)))
    func duplicatesWithinOneFileAreReported() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveMod(Inspect.Twice)
            BeeHiveModule(Inspect.Twice, basic, 5, sync)
            BeeHiveMod(Inspect.Once)

            """).write()
        defer { unlink(path) }
        let report = InspectionReport(files: [path])
        #expect(report.records.count == 3)
        #expect(report.diagnostics.map(\.kind) == ["duplicate"])
        #expect(report.diagnostics.first?.severity == "warning")
        #expect(report.diagnostics.first?.record == "beehive:1|module|Inspect.Twice|level=basic|priority=5|async=0")
        #expect(report.table.contains("is declared again; first declared in \(path)"))
        #expect(!report.hasUnreadableFile)
    }
}
