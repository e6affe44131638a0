@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

@Suite struct AnnotationRegistrationTests {
    @Test func annotatedServiceResolvesByProtocolName() throws {
        let manager = ServiceManager()
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl")]))
        #expect(manager.canCreateService(HomeService.self))
        #expect(manager.createService(HomeService.self)?.title == "home")
        #expect(try manager.resolve(HomeService.self) !== manager.resolve(HomeService.self))
    }

    @Test func extendedAnnotationSetsScopeAndName() throws {
        let manager = ServiceManager()
        manager.apply(
            Records.update(added: [
                Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl", scope: .singleton, name: "main")
            ]))
        let main = try manager.resolve(HomeService.self, name: "main")
        #expect(try manager.resolve(HomeService.self, name: "main") === main)
        #expect(!manager.canCreateService(HomeService.self))
    }

    @Test func annotatedImplementationsGetInjected() throws {
        let manager = ServiceManager()
        manager.apply(
            Records.update(added: [
                Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.InjectedHomeService"),
                Records.service("BeeHiveServicesTests.AccountService", "BeeHiveServicesTests.AccountServiceImpl", offset: 64),
            ]))
        #expect(try manager.resolve(HomeService.self).title == "injected for ann")
    }

    @Test func structImplementationsResolveByMangledName() throws {
        let mangled = try #require(_mangledTypeName(StructAccountService.self))
        let manager = ServiceManager()
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.AccountService", mangled)]))
        #expect(try manager.resolve(AccountService.self).user == "struct")
    }

    @Test func removedRecordsAreUnregistered() {
        let manager = ServiceManager()
        let record = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl")
        manager.apply(Records.update(added: [record]))
        #expect(manager.canCreateService(HomeService.self))
        manager.apply(Records.update(removed: [record]))
        #expect(!manager.canCreateService(HomeService.self))
        #expect(manager.registrations.isEmpty)
    }

    /// The first batch's registrations are kept unindexed until a later batch or a removal looks them up.
    @Test func aRecordDeliveredAgainIsNotRegisteredTwiceAndEarlierRecordsStillLeave() throws {
        let manager = ServiceManager(duplicatePolicy: .override)
        let first = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl", object: "/a.so")
        let second = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.OtherHomeServiceImpl", object: "/b.so")
        manager.apply(Records.update(added: [first]))
        manager.apply(Records.update(added: [first, second]))
        #expect(manager.registrations.count == 2)
        #expect(try manager.resolve(HomeService.self).title == "other home")
        manager.apply(Records.update(removed: [first]))
        #expect(manager.registrations.count == 1)
        #expect(try manager.resolve(HomeService.self).title == "other home")
        manager.apply(Records.update(removed: [second]))
        #expect(manager.registrations.isEmpty)
    }

    @Test func removingOneObjectKeepsTheOther() throws {
        let manager = ServiceManager(duplicatePolicy: .override)
        let first = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.HomeServiceImpl", object: "/a.so")
        let second = Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.OtherHomeServiceImpl", object: "/b.so")
        manager.apply(Records.update(added: [first, second]))
        #expect(try manager.resolve(HomeService.self).title == "other home")
        manager.apply(Records.update(removed: [second]))
        #expect(try manager.resolve(HomeService.self).title == "home")
    }

    @Test func otherRecordKindsAreIgnored() {
        let manager = ServiceManager()
        let module = AnnotationRecord(
            payload: .module(ModuleAnnotation(typeName: "BeeHiveServicesTests.HomeServiceImpl")),
            text: "beehive:1|module|BeeHiveServicesTests.HomeServiceImpl",
            origin: RecordOrigin(objectPath: "/a.so", section: SectionName.modules, offset: 0))
        manager.apply(Records.update(added: [module]))
        #expect(manager.registrations.isEmpty)
    }

    @Test func unknownImplementationNamesServiceAndType() {
        let manager = ServiceManager()
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.NoSuchImpl")]))
        #expect(!manager.canCreateService(HomeService.self))
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(
            error?.kind
                == .implementationNotFound(service: "BeeHiveServicesTests.HomeService", implementation: "BeeHiveServicesTests.NoSuchImpl"))
        #expect(error?.description.contains("'BeeHiveServicesTests.NoSuchImpl' of service BeeHiveServicesTests.HomeService") == true)
    }

    @Test func implementationTheManagerCannotCreate() {
        let manager = ServiceManager()
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.PlainHomeService")]))
        #expect(!manager.canCreateService(HomeService.self))
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(
            error?.kind
                == .notConstructible(service: "BeeHiveServicesTests.HomeService", implementation: "BeeHiveServicesTests.PlainHomeService"))
        #expect(error?.description.contains("ServiceImplementation") == true)
    }

    @Test func annotatedImplementationThatDoesNotConform() {
        let manager = ServiceManager()
        manager.apply(
            Records.update(added: [Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.UnrelatedImplementation")]))
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(
            error?.kind
                == .doesNotConform(
                    service: "BeeHiveServicesTests.HomeService", implementation: "BeeHiveServicesTests.UnrelatedImplementation"))
    }
}
