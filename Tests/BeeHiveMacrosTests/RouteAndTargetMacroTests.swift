@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

@Suite struct RouteAndTargetMacroTests {
    @Test func routeWithSchemeAndPriority() throws {
        let expansion = expandedRecords(
            """
            enum Routes {
                @BeeHiveRoute("/user/view/:id", scheme: "shop+app", priority: 12)
                struct UserHandler {}
            }
            """)
        #expect(expansion.errors == [])
        #expect(
            try parsed(try #require(expansion.records.first)).payload
                == .route(RouteAnnotation(pattern: "/user/view/:id", typeName: "4Shop6RoutesO11UserHandlerV", scheme: "shop+app", priority: 12)))
    }

    @Test func routeWithoutSchemeGoesToTheGlobalTable() throws {
        let expansion = expandedRecords(#"@BeeHiveRoute("/cart/*", scheme: nil) final class CartHandler {}"#)
        #expect(try parsed(try #require(expansion.records.first)).payload == .route(RouteAnnotation(pattern: "/cart/*", typeName: "Shop.CartHandler")))
    }

    @Test func target() throws {
        let expansion = expandedRecords(#"@BeeHiveTarget("checkout") final class CheckoutTarget {}"#)
        #expect(expansion.records == [ExpandedRecord(section: "beehive_routes", text: "beehive:1|target|checkout|Shop.CheckoutTarget")])
        #expect(try parsed(expansion.records[0]).payload == .target(TargetAnnotation(name: "checkout", typeName: "Shop.CheckoutTarget")))
    }
}
