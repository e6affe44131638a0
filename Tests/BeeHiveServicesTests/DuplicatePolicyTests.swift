@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Testing

@Suite struct DuplicatePolicyTests {
    @Test func strictIsTheDefault() {
        #expect(ServiceManager().duplicatePolicy == .strict)
    }

    @Test func strictMakesLookupsFailNamingEveryRegistration() {
        let recorder = LogRecorder()
        let manager = ServiceManager(logger: recorder.logger)
        manager.register(HomeService.self, implementation: HomeServiceImpl.self); let first = #line
        manager.register(HomeService.self, implementation: OtherHomeServiceImpl.self); let second = #line
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        let file = "BeeHiveServicesTests/DuplicatePolicyTests.swift"
        #expect(
            error?.kind
                == .duplicate(
                    service: "BeeHiveServicesTests.HomeService",
                    sources: [.code(fileID: file, line: first), .code(fileID: file, line: second)]))
        #expect(error?.description.contains("registered more than once (\(file):\(first); \(file):\(second))") == true)
        #expect(!manager.canCreateService(HomeService.self))
        #expect(recorder.messages(at: .error).contains { $0.contains("BeeHiveServicesTests.HomeService registered again") })
    }

    @Test func overrideUsesTheLastAndWarns() throws {
        let recorder = LogRecorder()
        let manager = ServiceManager(duplicatePolicy: .override, logger: recorder.logger)
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        manager.register(HomeService.self, implementation: OtherHomeServiceImpl.self)
        #expect(try manager.resolve(HomeService.self).title == "other home")
        #expect(recorder.messages(at: .warning).contains { $0.contains("BeeHiveServicesTests.HomeService registered again") })
    }

    @Test func theSameMappingTwiceIsNoConflict() throws {
        let recorder = LogRecorder()
        let manager = ServiceManager(logger: recorder.logger)
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl")]))
        let json = #"[{"service": "BeeHiveServicesTests.HomeService", "impl": "BeeHiveServicesTests.HomeServiceImpl"}]"#
        try manager.registerServices(from: Data(json.utf8), format: .json, source: "services.json")
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(recorder.messages(at: .error).isEmpty && recorder.messages(at: .warning).isEmpty)
    }

    @Test func theSameTypeTwiceInCodeIsNoConflict() throws {
        let recorder = LogRecorder()
        let manager = ServiceManager(logger: recorder.logger)
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(manager.registrations.map(\.implementation) == Array(repeating: "BeeHiveServicesTests.HomeServiceImpl", count: 2))
        #expect(recorder.messages(at: .error).isEmpty)
    }

    @Test func sameImplementationInAnotherScopeConflicts() {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        manager.register(HomeService.self, implementation: HomeServiceImpl.self, scope: .singleton)
        #expect(!manager.canCreateService(HomeService.self))
    }

    @Test func removingOneSideEndsTheConflict() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        let plugin = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.OtherHomeServiceImpl", object: "/plugins/libHome.so")
        manager.apply(Records.update(added: [plugin]))
        #expect(manager.createService(HomeService.self) == nil)
        manager.apply(Records.update(removed: [plugin]))
        #expect(try manager.resolve(HomeService.self).title == "home")
    }

    @Test func namesAreSeparateServices() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        manager.register(HomeService.self, implementation: OtherHomeServiceImpl.self, name: "other")
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(try manager.resolve(HomeService.self, name: "other").title == "other home")
    }
}
