@_spi(BeeHiveInternals) import BeeHiveRegistry
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ServiceMacroTests {
    @Test func unqualifiedProtocolIsTakenFromTheAnnotatedModule() throws {
        let expansion = expandedRecords(
            """
            @BeeHiveService(HomeService.self, scope: .singleton)
            struct HomeServiceImpl: HomeService {}
            """)
        #expect(expansion.errors == [])
        #expect(
            try parsed(try #require(expansion.records.first)).payload
                == .service(ServiceAnnotation(protocolName: "Shop.HomeService", typeName: "4Shop15HomeServiceImplV", scope: .singleton)))
    }

    @Test(arguments: [
        ("Interfaces.HomeService.self", "Interfaces.HomeService"), ("(any HomeService).self", "Shop.HomeService"),
        ("(any Interfaces.HomeService).self", "Interfaces.HomeService"), ("Shop.HomeService.self", "Shop.HomeService"),
        ("`HomeService`.self", "Shop.HomeService"),
    ])
    func protocolSpellings(written: String, recorded: String) throws {
        let expansion = expandedRecords("@BeeHiveService(\(written)) final class Impl {}")
        #expect(expansion.errors == [])
        let service = try parsed(try #require(expansion.records.first))
        #expect(service.payload == .service(ServiceAnnotation(protocolName: recorded, typeName: "Shop.Impl")))
    }

    @Test func namedScopeRecordsTheName() throws {
        let expansion = expandedRecords(#"@BeeHiveService(HomeService.self, scope: .named, name: "home-v2") final class Impl {}"#)
        #expect(
            try parsed(try #require(expansion.records.first)).payload
                == .service(ServiceAnnotation(protocolName: "Shop.HomeService", typeName: "Shop.Impl", scope: .named, name: "home-v2")))
    }

    @Test func expansionChecksConformanceAtCompileTimeAndKeepsTheTypeAlive() {
        assertExpansion(
            """
            @BeeHiveService(Interfaces.HomeService.self)
            struct Impl {
            }
            """,
            expandedSource: """
                struct Impl {

                    /// beehive:1|service|Interfaces.HomeService|4Shop4ImplV|scope=transient|name=
                    @section("beehive_services") @used
                    private static let __macro_local_13beeHiveRecordfMu_: (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8) = (98, 101, 101, 104, 105, 118, 101, 58, 49, 124, 115, 101, 114, 118, 105, 99, 101, 124, 73, 110, 116, 101, 114, 102, 97, 99, 101, 115, 46, 72, 111, 109, 101, 83, 101, 114, 118, 105, 99, 101, 124, 52, 83, 104, 111, 112, 52, 73, 109, 112, 108, 86, 124, 115, 99, 111, 112, 101, 61, 116, 114, 97, 110, 115, 105, 101, 110, 116, 124, 110, 97, 109, 101, 61, 0)

                    @section(".note.beehive") @used
                    private static let __macro_local_11beeHiveNotefMu_: (Swift.UInt32, Swift.UInt32, Swift.UInt32, (Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8, Swift.UInt8), Swift.UInt32) = (8, 4, 0x4248_0001, (66, 101, 101, 72, 105, 118, 101, 0), 1)

                    @section("beehive_types") @used
                    private static let __macro_local_11beeHiveTypefMu_: (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (0x3f42847b015a331f, { expected, result in
                        if Swift.Int(bitPattern: expected) == 1 {
                            result.initializeMemory(as: Swift.StaticString.self, repeating: "4Shop4ImplV", count: 1)
                            return true
                        }
                        guard expected == Swift.unsafeBitCast((any BeeHiveServices.ServiceImplementation.Type).self as Any.Type, to: Swift.UnsafeRawPointer.self) else {
                                return false
                            }
                        result.initializeMemory(as: (any BeeHiveServices.ServiceImplementation.Type).self, repeating: `Impl`.self, count: 1)
                        return true
                        })

                    @section("beehive_types") @used
                    private static let __macro_local_15beeHiveProtocolfMu_: (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (0x230b9363d6998c75, { expected, result in
                        if Swift.Int(bitPattern: expected) == 1 {
                            result.initializeMemory(as: Swift.StaticString.self, repeating: "Interfaces.HomeService", count: 1)
                            return true
                        }
                        guard expected == Swift.unsafeBitCast(Any.Type.self as Any.Type, to: Swift.UnsafeRawPointer.self) else {
                                return false
                            }
                        result.initializeMemory(as: Any.Type.self, repeating: (any Interfaces.HomeService).self, count: 1)
                        return true
                        })

                    @used
                    private static func __macro_local_16beeHiveKeepAlivefMu_() -> any Interfaces.HomeService.Type {
                        Self.self
                    }
                }
                """)
    }
}
