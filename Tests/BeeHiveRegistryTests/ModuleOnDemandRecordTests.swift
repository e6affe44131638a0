@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// The `ondemand` attribute of module records: `1` lets a plugin folder load the module's plugin on first use.
@Suite struct ModuleOnDemandRecordTests {
    @Test func theAttributeIsParsed() throws {
        #expect(try RecordParser.payload(of: "beehive:1|module|Shop.Cart|ondemand=1")
            == .module(ModuleAnnotation(typeName: "Shop.Cart", isOnDemand: true)))
        #expect(try RecordParser.payload(of: "beehive:1|module|Shop.Cart|ondemand=0") == .module(ModuleAnnotation(typeName: "Shop.Cart")))
        #expect(try RecordParser.payload(of: "beehive:1|module|Shop.Cart|ondemand=1|level=basic|depends=Shop.Net")
            == .module(ModuleAnnotation(typeName: "Shop.Cart", level: .basic, dependencies: ["Shop.Net"], isOnDemand: true)))
        #expect(try RecordParser.payload(of: "beehive:1|module|Shop.Cart") == .module(ModuleAnnotation(typeName: "Shop.Cart")))
    }

    @Test(arguments: [
        "beehive:1|module|Shop.Cart|ondemand=",
        "beehive:1|module|Shop.Cart|ondemand=yes",
        "beehive:1|module|Shop.Cart|ondemand=2",
        "beehive:1|module|Shop.Cart|ondemand=1|ondemand=1",
        "beehive:1|service|Shop.Cart|Shop.CartImpl|ondemand=1",
    ])
    func badValuesAndOtherKindsAreRefused(text: String) {
        #expect(throws: RegistryDiagnostic.self) { try RecordParser.payload(of: text) }
    }

    /// beehive.h's macros write records the parser reads back.
    @Test(.timeLimit(.minutes(10)))
    func cMacrosWriteTheAttribute() throws {
        let bytes = try TestLibrary.build("""
            #include <beehive.h>
            BeeHiveModuleOnDemand(Shop.Cart, basic, 3, sync)
            BeeHiveModuleOnDemandDepends(Shop.Checkout, normal, 5, async, "Shop.Cart")

            """)
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, _) = try TestLibrary.readAnnotations(of: bytes, in: directory)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.map(\.text) == [
            "beehive:1|module|Shop.Cart|level=basic|priority=3|async=0|ondemand=1",
            "beehive:1|module|Shop.Checkout|level=normal|priority=5|async=1|depends=Shop.Cart|ondemand=1",
        ])
        #expect(result.records.map(\.payload) == [
            .module(ModuleAnnotation(typeName: "Shop.Cart", level: .basic, priority: 3, isOnDemand: true)),
            .module(ModuleAnnotation(typeName: "Shop.Checkout", priority: 5, isAsync: true, dependencies: ["Shop.Cart"], isOnDemand: true)),
        ])
    }
}
