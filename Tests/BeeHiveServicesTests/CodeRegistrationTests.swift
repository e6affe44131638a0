@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

struct Greeting: Sendable {
    let text: String
}

@Suite struct CodeRegistrationTests {
    @Test func factoryRegistrationReturnsTheServiceTyped() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self) { _, _ in HomeServiceImpl() }
        let home: (any HomeService)? = manager.createService(HomeService.self)
        #expect(home?.title == "home")
        #expect(try manager.resolve(HomeService.self).title == "home")
        #expect(manager.canCreateService(HomeService.self))
    }

    @Test func implementationTypeRegistration() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        #expect(try manager.resolve(HomeService.self) is HomeServiceImpl)
    }

    @Test func existentialSpellingsMeet() throws {
        let manager = ServiceManager()
        manager.register((any HomeService).self) { _, _ in HomeServiceImpl() }
        #expect(try manager.resolve(HomeService.self).title == "home")
    }

    @Test func concreteTypesAreServicesToo() throws {
        let manager = ServiceManager()
        manager.register(Counter.self, scope: .singleton) { _, _ in Counter() }
        #expect(try manager.resolve(Counter.self) === manager.resolve(Counter.self))
    }

    @Test func initializerGetsDependenciesFromTheResolver() throws {
        let manager = ServiceManager()
        manager.register(AccountService.self, implementation: AccountServiceImpl.self)
        manager.register(HomeService.self, implementation: InjectedHomeService.self)
        let home = try #require(try manager.resolve(HomeService.self) as? InjectedHomeService)
        #expect(home.account.user == "ann")
        #expect(home.title == "injected for ann")
    }

    @Test func factoryGetsDependenciesFromTheResolver() throws {
        let manager = ServiceManager()
        manager.register(AccountService.self) { _, _ in AccountServiceImpl() }
        manager.register(Greeting.self) { resolver, _ in
            Greeting(text: "hello \(try resolver.resolve(AccountService.self).user)")
        }
        #expect(try manager.resolve(Greeting.self).text == "hello ann")
    }

    @Test func argumentsReachFactoriesAndInitializers() throws {
        let manager = ServiceManager()
        manager.register(Greeting.self) { _, arguments in
            let name = try arguments.argument("name", as: String.self)
            let times: Int = try arguments.argument(at: 0)
            return Greeting(text: Array(repeating: "hi \(name)", count: times).joined(separator: ", "))
        }
        manager.register(AccountService.self, implementation: AccountServiceImpl.self)
        manager.register(HomeService.self, implementation: InjectedHomeService.self)

        let greeting = try manager.resolve(Greeting.self, arguments: ServiceArguments([2], named: ["name": "Ann"]))
        #expect(greeting.text == "hi Ann, hi Ann")
        #expect(try manager.resolve(HomeService.self, arguments: ["title": "custom"]).title == "custom")
        #expect(manager.createService(Greeting.self, arguments: ServiceArguments([1], named: ["name": "Bo"]))?.text == "hi Bo")
    }

    @Test func missingArgumentNamesServiceAndArgument() {
        let manager = ServiceManager()
        manager.register(Greeting.self) { _, arguments in Greeting(text: try arguments.argument("name")) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(Greeting.self) }
        #expect(error?.kind == .missingArgument(service: "BeeHiveServicesTests.Greeting", argument: .name("name")))
        #expect(error?.description.contains("needs argument 'name'") == true)
        #expect(error?.resolutionPath == ["BeeHiveServicesTests.Greeting"])
    }

    @Test func mistypedArgumentNamesBothTypes() {
        let manager = ServiceManager()
        manager.register(Greeting.self) { _, arguments in Greeting(text: try arguments.argument(at: 0)) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(Greeting.self, arguments: [42]) }
        #expect(
            error?.kind
                == .argumentTypeMismatch(
                    service: "BeeHiveServicesTests.Greeting", argument: .position(0), expected: "Swift.String", actual: "Swift.Int"))
    }

    @Test func notRegisteredNamesTheService() {
        let recorder = LogRecorder()
        let manager = ServiceManager(logger: recorder.logger)
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(AccountService.self) }
        #expect(error?.kind == .notRegistered(service: "BeeHiveServicesTests.AccountService"))
        #expect(error?.description.contains("service BeeHiveServicesTests.AccountService is not registered") == true)
        #expect(!manager.canCreateService(AccountService.self))

        #expect(manager.createService(AccountService.self) == nil)
        #expect(recorder.messages(at: .error).contains { $0.contains("BeeHiveServicesTests.AccountService is not registered") })
    }

    @Test func namedLookupNeedsANamedRegistration() {
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self, name: "main") }
        #expect(error?.kind == .notRegistered(service: "BeeHiveServicesTests.HomeService", name: "main"))
        #expect(error?.description.contains("BeeHiveServicesTests.HomeService named \"main\" is not registered") == true)
    }

    @Test func missingDependencyShowsTheResolutionPath() {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: NeedsAccountHomeService.self)
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(error?.kind == .notRegistered(service: "BeeHiveServicesTests.AccountService"))
        #expect(error?.resolutionPath == ["BeeHiveServicesTests.HomeService", "BeeHiveServicesTests.AccountService"])
        #expect(
            error?.description.contains(
                "while resolving BeeHiveServicesTests.HomeService -> BeeHiveServicesTests.AccountService") == true)
    }

    @Test func nonConformingImplementationIsATypedError() {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: UnrelatedImplementation.self)
        #expect(manager.canCreateService(HomeService.self))
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(
            error?.kind
                == .doesNotConform(
                    service: "BeeHiveServicesTests.HomeService", implementation: "BeeHiveServicesTests.UnrelatedImplementation"))
        #expect(manager.createService(HomeService.self) == nil)
    }

    @Test func failingFactoryIsReportedWithItsReason() {
        let manager = ServiceManager()
        manager.register(HomeService.self) { _, _ throws -> any HomeService in throw FactoryFailure() }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(HomeService.self) }
        #expect(
            error?.kind
                == .creationFailed(
                    service: "BeeHiveServicesTests.HomeService", implementation: "factory", reason: "the database is closed"))
    }

    @Test func unregisterRemovesTheService() {
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
        _ = manager.createService(HomeService.self)
        manager.unregister(HomeService.self)
        #expect(!manager.canCreateService(HomeService.self))
        #expect(manager.createService(HomeService.self) == nil)
    }

    @Test func canCreateServiceLooksWithoutCreating() {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(HomeService.self) { _, _ in
            counter.increment()
            return HomeServiceImpl()
        }
        manager.apply(Records.update(added: [Records.service("BeeHiveServicesTests.AccountService", "BeeHiveServicesTests.Missing")]))
        #expect(manager.canCreateService(HomeService.self))
        #expect(!manager.canCreateService(HomeService.self, name: "other"))
        #expect(!manager.canCreateService(AccountService.self))
        #expect(!manager.canCreateService(Greeting.self))
        #expect(counter.count == 0)
    }
}
