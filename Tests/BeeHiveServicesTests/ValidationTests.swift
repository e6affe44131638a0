@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

/// No name lookup finds a private protocol: validation knows it only as the type registered in code.
private protocol PrivateService: AnyObject {}

@Suite struct ValidationTests {
    @Test func aServiceRegisteredInCodeIsCheckedAgainstItsOwnType() throws {
        let manager = ServiceManager()
        manager.register(PrivateService.self, implementation: UnrelatedImplementation.self)
        let service = try #require(manager.registrations.first?.service)
        #expect(
            manager.validate().map(\.kind)
                == [.doesNotConform(service: service, implementation: "BeeHiveServicesTests.UnrelatedImplementation")])
    }

    @Test func healthyServicesValidateAndSingletonsStayCreated() throws {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: .singleton) { _, _ in
            counter.increment()
            return HomeServiceImpl()
        }
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.AccountService", "BeeHiveServicesTests.AccountServiceImpl")]))
        #expect(manager.validate().isEmpty)
        _ = try manager.resolve(HomeService.self)
        #expect(counter.count == 1)
    }

    @Test func everythingMissingOrBrokenIsReported() {
        let manager = ServiceManager()
        let annotated: [AnnotationRecord] = [
            Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.NoSuchImpl", scope: .singleton, name: "missing", offset: 0),
            Records.service("BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.PlainHomeService", scope: .singleton, name: "plain", offset: 100),
            // Never looked up in code: the protocol is found from its name to check conformance.
            Records.service("BeeHiveServicesTests.AccountService", "BeeHiveServicesTests.UnrelatedImplementation", offset: 200),
            Records.service("BeeHiveServicesTests.Outer.NestedService", "BeeHiveServicesTests.HomeServiceImpl", offset: 300),
        ]
        manager.apply(Records.update(added: annotated))
        manager.register(HomeService.self, implementation: NeedsAccountHomeService.self, name: "needs-account")
        manager.register(HomeService.self, name: "failing") { _, _ throws -> any HomeService in throw FactoryFailure() }
        manager.register(HomeService.self, implementation: HomeServiceImpl.self, name: "twice")
        manager.register(HomeService.self, implementation: OtherHomeServiceImpl.self, name: "twice")
        manager.register(CycleA.self) { resolver, _ in CycleNode(try resolver.resolve(CycleB.self)) }
        manager.register(CycleB.self) { resolver, _ in CycleNode(try resolver.resolve(CycleA.self)) }
        manager.register(Greeting.self) { _, _ in Greeting(text: "fine") }

        let kinds = manager.validate().map(\.kind)
        let home = "BeeHiveServicesTests.HomeService"
        #expect(kinds.count == 9)
        #expect(kinds.contains(.notRegistered(service: "BeeHiveServicesTests.AccountService")) == false)
        #expect(kinds.contains(.doesNotConform(service: "BeeHiveServicesTests.AccountService", implementation: "BeeHiveServicesTests.UnrelatedImplementation")))
        #expect(kinds.contains(.doesNotConform(service: "BeeHiveServicesTests.Outer.NestedService", implementation: "BeeHiveServicesTests.HomeServiceImpl")))
        #expect(kinds.contains(.implementationNotFound(service: "\(home) named \"missing\"", implementation: "BeeHiveServicesTests.NoSuchImpl")))
        #expect(kinds.contains(.notConstructible(service: "\(home) named \"plain\"", implementation: "BeeHiveServicesTests.PlainHomeService")))
        #expect(kinds.contains(.creationFailed(service: "\(home) named \"failing\"", implementation: "factory", reason: "the database is closed")))
        #expect(kinds.contains { if case .duplicate(service: "\(home) named \"twice\"", _) = $0 { true } else { false } })
        #expect(kinds.contains(.cycle(chain: ["BeeHiveServicesTests.CycleA", "BeeHiveServicesTests.CycleB", "BeeHiveServicesTests.CycleA"])))
        #expect(kinds.contains(.cycle(chain: ["BeeHiveServicesTests.CycleB", "BeeHiveServicesTests.CycleA", "BeeHiveServicesTests.CycleB"])))
    }

    @Test func missingDependencyIsReportedWithItsPath() {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: NeedsAccountHomeService.self)
        let errors = manager.validate()
        #expect(errors.map(\.kind) == [.notRegistered(service: "BeeHiveServicesTests.AccountService")])
        #expect(errors.first?.resolutionPath == ["BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.AccountService"])
    }

    @Test func servicesNeedingTheirOwnArgumentsAreNotReported() {
        let manager = ServiceManager()
        manager.register(Greeting.self) { _, arguments in Greeting(text: try arguments.argument("name")) }
        #expect(manager.validate().isEmpty)
        // But a dependency created without the argument it needs is a bug.
        manager.register(HomeService.self) { resolver, _ in
            _ = try resolver.resolve(Greeting.self)
            return HomeServiceImpl()
        }
        #expect(
            manager.validate().map(\.kind) == [.missingArgument(service: "BeeHiveServicesTests.Greeting", argument: .name("name"))])
    }
}
