@_spi(BeeHiveInternals) import BeeHiveRegistry
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ModuleMacroTests {
    @Test func expandsToRecordAndNoteInSections() {
        assertExpansion(
            """
            @BeeHiveModule(level: .basic, priority: 7)
            final class A {
            }
            """,
            expandedSource: """
                final class A {

                    /// beehive:1|module|Shop.A|level=basic|priority=7|async=0
                    @section("beehive_mods") @used
                    private static let __macro_local_13beeHiveRecordfMu_: (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8) = (98, 101, 101, 104, 105, 118, 101, 58, 49, 124, 109, 111, 100, 117, 108, 101, 124, 83, 104, 111, 112, 46, 65, 124, 108, 101, 118, 101, 108, 61, 98, 97, 115, 105, 99, 124, 112, 114, 105, 111, 114, 105, 116, 121, 61, 55, 124, 97, 115, 121, 110, 99, 61, 48, 0)

                    @section(".note.beehive") @used
                    private static let __macro_local_11beeHiveNotefMu_: (Swift.UInt32, Swift.UInt32, Swift.UInt32, (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8), Swift.UInt32) = (8, 4, 0x4248_0001, (66, 101, 101, 72, 105, 118, 101, 0), 1)

                    @section("beehive_types") @used
                    private static let __macro_local_11beeHiveTypefMu_: (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (0x727f441073ea2eec, { expected, result in
                        if Swift.Int(bitPattern: expected) == 1 {
                            result.initializeMemory(as: Swift.StaticString.self, repeating: "Shop.A", count: 1)
                            return true
                        }
                        guard expected == Swift.unsafeBitCast((any BeeHiveModules.Module.Type).self as Any.Type, to: Swift.UnsafeRawPointer.self) else {
                                return false
                            }
                        result.initializeMemory(as: (any BeeHiveModules.Module.Type).self, repeating: `A`.self, count: 1)
                        return true
                        })
                }
                """)
    }

    /// `onDemand: true` appends the attribute; without it the record is the one launch modules always had.
    @Test func onDemandExpandsToTheAttribute() {
        assertExpansion(
            """
            @BeeHiveModule(onDemand: true)
            final class A {
            }
            """,
            expandedSource: """
                final class A {

                    /// beehive:1|module|Shop.A|level=normal|priority=0|async=0|ondemand=1
                    @section("beehive_mods") @used
                    private static let __macro_local_13beeHiveRecordfMu_: (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8) = (98, 101, 101, 104, 105, 118, 101, 58, 49, 124, 109, 111, 100, 117, 108, 101, 124, 83, 104, 111, 112, 46, 65, 124, 108, 101, 118, 101, 108, 61, 110, 111, 114, 109, 97, 108, 124, 112, 114, 105, 111, 114, 105, 116, 121, 61, 48, 124, 97, 115, 121, 110, 99, 61, 48, 124, 111, 110, 100, 101, 109, 97, 110, 100, 61, 49, 0)

                    @section(".note.beehive") @used
                    private static let __macro_local_11beeHiveNotefMu_: (Swift.UInt32, Swift.UInt32, Swift.UInt32, (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8), Swift.UInt32) = (8, 4, 0x4248_0001, (66, 101, 101, 72, 105, 118, 101, 0), 1)

                    @section("beehive_types") @used
                    private static let __macro_local_11beeHiveTypefMu_: (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (0x727f441073ea2eec, { expected, result in
                        if Swift.Int(bitPattern: expected) == 1 {
                            result.initializeMemory(as: Swift.StaticString.self, repeating: "Shop.A", count: 1)
                            return true
                        }
                        guard expected == Swift.unsafeBitCast((any BeeHiveModules.Module.Type).self as Any.Type, to: Swift.UnsafeRawPointer.self) else {
                                return false
                            }
                        result.initializeMemory(as: (any BeeHiveModules.Module.Type).self, repeating: `A`.self, count: 1)
                        return true
                        })
                }
                """)
    }

    @Test func onDemandWithDependenciesIsParsedBack() throws {
        let expansion = expandedRecords("@BeeHiveModule(level: .basic, dependencies: [NetworkModule.self], onDemand: true) final class ShopModule {}")
        #expect(expansion.errors == [])
        #expect(expansion.records.map(\.text) == [
            "beehive:1|module|Shop.ShopModule|level=basic|priority=0|async=0|depends=Shop.NetworkModule|ondemand=1",
        ])
        #expect(
            try parsed(try #require(expansion.records.first)).payload
                == .module(ModuleAnnotation(typeName: "Shop.ShopModule", level: .basic, dependencies: ["Shop.NetworkModule"], isOnDemand: true)))
        #expect(expandedRecords("@BeeHiveModule(onDemand: false) final class ShopModule {}").records.map(\.text) == [
            "beehive:1|module|Shop.ShopModule|level=normal|priority=0|async=0",
        ])
    }

    @Test func topLevelClassIsRecordedWithItsModule() throws {
        let expansion = expandedRecords("@BeeHiveModule final class ShopModule {}")
        #expect(expansion.errors == [])
        #expect(expansion.notes == 1)
        #expect(expansion.references == 1)
        #expect(expansion.records == [ExpandedRecord(section: "beehive_mods", text: "beehive:1|module|Shop.ShopModule|level=normal|priority=0|async=0")])
        #expect(try parsed(expansion.records[0]).payload == .module(ModuleAnnotation(typeName: "Shop.ShopModule")))
    }

    @Test func nestedClassIsRecordedByItsMangledName() throws {
        let expansion = expandedRecords(
            """
            struct Checkout {
                enum Steps {
                    @BeeHiveModule(level: .basic, priority: -20, async: true)
                    final class FlowModule {}
                }
            }
            """)
        #expect(expansion.errors == [])
        let record = try #require(expansion.records.first)
        #expect(
            try parsed(record).payload
                == .module(ModuleAnnotation(typeName: "4Shop8CheckoutV5StepsO10FlowModuleC", level: .basic, priority: -20, isAsync: true)))
    }

    /// Dependencies are recorded by the names the module manager knows them by, once each, in the order written;
    /// an unqualified one is taken to be in the annotated type's module.
    @Test func dependenciesAreRecordedByModuleName() throws {
        let expansion = expandedRecords(
            """
            @BeeHiveModule(priority: 3, dependencies: [NetworkModule.self, Net.AccountModule.self, NetworkModule.self])
            final class ShopModule {}
            """)
        #expect(expansion.errors == [])
        #expect(expansion.records.map(\.text) == [
            "beehive:1|module|Shop.ShopModule|level=normal|priority=3|async=0|depends=Shop.NetworkModule,Net.AccountModule",
        ])
        #expect(
            try parsed(try #require(expansion.records.first)).payload
                == .module(ModuleAnnotation(typeName: "Shop.ShopModule", priority: 3, dependencies: ["Shop.NetworkModule", "Net.AccountModule"])))
    }

    /// The compiler checks each dependency: the expansion returns them as module types.
    @Test func dependenciesAreCheckedAsModuleTypes() {
        let text = expandedText("@BeeHiveModule(dependencies: [NetworkModule.self, Net.AccountModule.self]) final class ShopModule {}")
        #expect(
            text.filter { !$0.isWhitespace }.contains("->[anyBeeHiveModules.Module.Type]{[NetworkModule.self,Net.AccountModule.self]}"),
            "\(text)")
    }

    @Test func noDependenciesWriteNoAttribute() {
        let expansion = expandedRecords("@BeeHiveModule(dependencies: []) final class ShopModule {}")
        #expect(expansion.errors == [])
        #expect(expansion.records.map(\.text) == ["beehive:1|module|Shop.ShopModule|level=normal|priority=0|async=0"])
        #expect(!expandedText("@BeeHiveModule(dependencies: []) final class ShopModule {}").contains("Module.Type]"))
    }

    @Test(arguments: [
        ("struct", "4Shop4CartV"), ("enum", "4Shop4CartO"), ("actor", "Shop.Cart"), ("final class", "Shop.Cart"),
    ])
    func everyNominalKindIsNamedTheWayTheRuntimeResolves(keyword: String, expected: String) throws {
        let expansion = expandedRecords("@BeeHiveModule \(keyword) Cart {}")
        #expect(expansion.errors == [])
        #expect(try parsed(try #require(expansion.records.first)).payload == .module(ModuleAnnotation(typeName: expected)))
    }

    @Test func typeInExtensionUsesAnyKindForTheExtendedType() throws {
        let expansion = expandedRecords(
            """
            extension Shop.Outer.Middle {
                @BeeHiveModule struct Inner {}
            }
            """)
        #expect(expansion.errors == [])
        #expect(try parsed(try #require(expansion.records.first)).payload == .module(ModuleAnnotation(typeName: "4Shop5OuterXY6MiddleXY5InnerV")))
    }

    @Test func backtickedNamesAreRecordedWithoutBackticks() throws {
        let expansion = expandedRecords("@BeeHiveModule final class `Type` {}")
        #expect(expansion.records.map(\.text) == ["beehive:1|module|Shop.Type|level=normal|priority=0|async=0"])
    }

    @Test func eachAnnotationOfOneTypeGetsItsOwnMembers() {
        let expansion = expandedRecords(
            """
            @BeeHiveRoute("/a") @BeeHiveRoute("/b", scheme: "shop")
            final class Handler {}
            """)
        #expect(expansion.errors == [])
        #expect(expansion.notes == 2)
        #expect(expansion.records.map(\.text) == [
            "beehive:1|route|/a|Shop.Handler|scheme=|priority=0", "beehive:1|route|/b|Shop.Handler|scheme=shop|priority=0",
        ])
    }
}
