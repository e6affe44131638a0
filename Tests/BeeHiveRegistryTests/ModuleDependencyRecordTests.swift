@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// The `depends` attribute of module records: module type names separated by ','.
@Suite struct ModuleDependencyRecordTests {
    @Test func dependenciesAreParsed() throws {
        let payload = try RecordParser.payload(of: "beehive:1|module|Shop.Cart|depends=Shop.Network,4Shop7AccountC")
        #expect(payload == .module(ModuleAnnotation(typeName: "Shop.Cart", dependencies: ["Shop.Network", "4Shop7AccountC"])))
        let plain = try RecordParser.payload(of: "beehive:1|module|Shop.Cart|level=basic")
        #expect(plain == .module(ModuleAnnotation(typeName: "Shop.Cart", level: .basic)))
    }

    @Test(arguments: [
        "beehive:1|module|Shop.Cart|depends=",
        "beehive:1|module|Shop.Cart|depends=Shop.A,,Shop.B",
        "beehive:1|module|Shop.Cart|depends=Shop.A,",
        "beehive:1|module|Shop.Cart|depends=Shop.A, Shop.B",
        "beehive:1|module|Shop.Cart|depends=Shop.A|depends=Shop.B",
    ])
    func badListsAreRefused(text: String) {
        #expect(throws: RegistryDiagnostic.self) { try RecordParser.payload(of: text) }
    }

    /// beehive.h's macro writes a record the parser reads back.
    @Test(.timeLimit(.minutes(10)))
    func cMacroWritesTheAttribute() throws {
        let bytes = try TestLibrary.build("""
            #include <beehive.h>
            BeeHiveModuleDepends(Shop.Cart, normal, 5, async, "Shop.Network,Shop.Account")

            """)
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, _) = try TestLibrary.readAnnotations(of: bytes, in: directory)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.text) == ["beehive:1|module|Shop.Cart|level=normal|priority=5|async=1|depends=Shop.Network,Shop.Account"])
        #expect(result.records.first?.payload == .module(
            ModuleAnnotation(typeName: "Shop.Cart", priority: 5, isAsync: true, dependencies: ["Shop.Network", "Shop.Account"])))
    }
}
