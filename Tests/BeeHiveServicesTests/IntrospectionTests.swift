@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Testing

@Suite struct IntrospectionTests {
    @Test func listsEveryRegistrationWithItsSource() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self, scope: .singleton); let line = #line
        manager.register(Greeting.self, scope: .weak, name: "hello") { _, _ in Greeting(text: "hi") }; let factoryLine = #line
        let record = Records.service(
            "BeeHiveServicesTests.AccountService", "BeeHiveServicesTests.AccountServiceImpl", scope: .named, name: "main",
            object: "/opt/app/libAccount.so", offset: 48)
        manager.apply(Records.update(added: [record]))
        let json = #"[{"service": "BeeHiveServicesTests.Outer.NestedService", "impl": "BeeHiveServicesTests.UnrelatedImplementation"}]"#
        try manager.registerServices(from: Data(json.utf8), format: .json, source: "/etc/app/services.json")

        let file = "BeeHiveServicesTests/IntrospectionTests.swift"
        #expect(
            manager.registrations == [
                ServiceRegistration(
                    service: "BeeHiveServicesTests.AccountService", name: "main",
                    implementation: "BeeHiveServicesTests.AccountServiceImpl", scope: .named,
                    source: .annotation(RecordOrigin(objectPath: "/opt/app/libAccount.so", section: "beehive_services", offset: 48)),
                    status: .active),
                ServiceRegistration(
                    service: "BeeHiveServicesTests.Greeting", name: "hello", implementation: "factory", scope: .weak,
                    source: .code(fileID: file, line: factoryLine), status: .active),
                ServiceRegistration(
                    service: "BeeHiveServicesTests.HomeService", name: nil, implementation: "BeeHiveServicesTests.HomeServiceImpl",
                    scope: .singleton, source: .code(fileID: file, line: line), status: .active),
                ServiceRegistration(
                    service: "BeeHiveServicesTests.Outer.NestedService", name: nil,
                    implementation: "BeeHiveServicesTests.UnrelatedImplementation", scope: .transient,
                    source: .configuration(path: "/etc/app/services.json", entry: 0), status: .active),
            ])
        #expect(
            manager.registrations[0].description
                == "BeeHiveServicesTests.AccountService named \"main\" -> BeeHiveServicesTests.AccountServiceImpl [named, active] from /opt/app/libAccount.so [beehive_services+48]")
    }

    @Test func statusesFollowThePolicy() {
        let strict = ServiceManager()
        let override = ServiceManager(duplicatePolicy: .override)
        for manager in [strict, override] {
            manager.register(HomeService.self, implementation: HomeServiceImpl.self)
            manager.register(HomeService.self, implementation: OtherHomeServiceImpl.self)
        }
        #expect(strict.registrations.map(\.status) == [.conflicting, .conflicting])
        #expect(override.registrations.map(\.status) == [.shadowed, .active])
        #expect(override.registrations.map(\.implementation) == ["BeeHiveServicesTests.HomeServiceImpl", "BeeHiveServicesTests.OtherHomeServiceImpl"])

        let same = ServiceManager()
        same.register(HomeService.self, implementation: HomeServiceImpl.self)
        same.register(HomeService.self, implementation: HomeServiceImpl.self)
        #expect(same.registrations.map(\.status) == [.active, .shadowed])
    }
}
