import Testing
@_spi(BeeHiveInternals) @testable import BeeHiveServices

@Suite struct ServiceTypeNameTests {
    @Test func protocolMetatypesPrintTheirDottedName() {
        #expect(ServiceTypeName.of(HomeService.self) == "BeeHiveServicesTests.HomeService")
        #expect(ServiceTypeName.of((any HomeService).self) == "BeeHiveServicesTests.HomeService")
        #expect(ServiceTypeName.of((any Outer.NestedService).self) == "BeeHiveServicesTests.Outer.NestedService")
        #expect(ServiceTypeName.of(HomeServiceImpl.self) == "BeeHiveServicesTests.HomeServiceImpl")
    }

    @Test func leadingAnyAndSpacesAreDropped() {
        #expect(ServiceTypeName.normalized("any App.HomeService") == "App.HomeService")
        #expect(ServiceTypeName.normalized("  App.HomeService ") == "App.HomeService")
    }

    @Test func dottedNamesResolveToProtocolsAndClasses() throws {
        let home = try #require(ServiceTypeName.type(named: "BeeHiveServicesTests.HomeService"))
        #expect(ObjectIdentifier(home) == ObjectIdentifier((any HomeService).self))
        let nested = try #require(ServiceTypeName.type(named: "BeeHiveServicesTests.Outer.NestedService"))
        #expect(ObjectIdentifier(nested) == ObjectIdentifier((any Outer.NestedService).self))
        let implementation = try #require(ServiceTypeName.type(named: "BeeHiveServicesTests.HomeServiceImpl"))
        #expect(ObjectIdentifier(implementation) == ObjectIdentifier(HomeServiceImpl.self))
        #expect(ServiceTypeName.type(named: "BeeHiveServicesTests.NoSuchService") == nil)
        #expect(ServiceTypeName.type(named: "not a name") == nil)
    }

    @Test func instancesAreCheckedAgainstExistentials() {
        #expect(ServiceTypeName.isInstance(HomeServiceImpl(), of: (any HomeService).self))
        #expect(!ServiceTypeName.isInstance(UnrelatedImplementation(), of: (any HomeService).self))
    }
}
