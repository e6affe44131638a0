import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation
import Testing

@Suite struct ScopeTests {
    /// A manager with HomeService registered under `scope`, and the counter of its factory's calls. A delay
    /// keeps the creation window open while other threads arrive.
    private func manager(
        _ scope: ServiceScope, name: String? = nil, delay microseconds: UInt32 = 0
    ) -> (ServiceManager, Counter) {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: scope, name: name) { _, _ in
            counter.increment()
            if microseconds > 0 { usleep(microseconds) }
            return HomeServiceImpl()
        }
        return (manager, counter)
    }

    @Test func transientMakesANewInstanceEachTime() throws {
        let (manager, counter) = manager(.transient)
        let first = try manager.resolve(HomeService.self)
        let second = try manager.resolve(HomeService.self)
        #expect(first !== second)
        #expect(counter.count == 2)
    }

    @Test func singletonMakesOneInstance() throws {
        let (manager, counter) = manager(.singleton)
        let first = try manager.resolve(HomeService.self)
        #expect(try manager.resolve(HomeService.self) === first)
        #expect(manager.createService(HomeService.self) === first)
        manager.register(Greeting.self) { resolver, _ in
            Greeting(text: try resolver.resolve(HomeService.self) === first ? "same" : "other")
        }
        #expect(try manager.resolve(Greeting.self).text == "same")
        #expect(counter.count == 1)
    }

    @Test func singletonIsCreatedOnceWhen64ThreadsAskAtOnce() {
        let (manager, counter) = manager(.singleton, delay: 2_000)
        let instances = Locked<Set<ObjectIdentifier>>([])
        let failures = Counter()
        onThreads(64) { _ in
            guard let home = manager.createService(HomeService.self) else { return failures.increment() }
            instances.withLock { _ = $0.insert(ObjectIdentifier(home)) }
        }
        #expect(counter.count == 1)
        #expect(failures.count == 0)
        #expect(instances.withLock { $0.count } == 1)
    }

    @Test func singletonIsCreatedOnceWhen64TasksAskAtOnce() async {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: .singleton) { _, _ in
            counter.increment()
            return HomeServiceImpl()
        }
        let instances = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<64 {
                group.addTask { manager.createService(HomeService.self).map(ObjectIdentifier.init) }
            }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(counter.count == 1)
        #expect(instances.count == 1 && instances.first != nil)
    }

    @Test func namedScopeCachesOneInstancePerName() throws {
        let (manager, counter) = manager(.named)
        let a = try manager.resolve(HomeService.self, name: "a")
        let b = try manager.resolve(HomeService.self, name: "b")
        let unnamed = try manager.resolve(HomeService.self)
        #expect(a !== b && a !== unnamed && b !== unnamed)
        #expect(try manager.resolve(HomeService.self, name: "a") === a)
        #expect(try manager.resolve(HomeService.self, name: "b") === b)
        #expect(try manager.resolve(HomeService.self) === unnamed)
        #expect(counter.count == 3)
    }

    @Test func namedScopeUnderARegisteredName() throws {
        let (manager, counter) = manager(.named, name: "main")
        let main = try manager.resolve(HomeService.self, name: "main")
        #expect(try manager.resolve(HomeService.self, name: "main") === main)
        #expect(!manager.canCreateService(HomeService.self))
        #expect(counter.count == 1)
    }

    @Test func namedInstancesAreCreatedOncePerNameUnderContention() {
        let (manager, counter) = manager(.named, delay: 2_000)
        let instances = Locked<[String: Set<ObjectIdentifier>]>([:])
        onThreads(32) { index in
            let name = "n\(index % 4)"
            guard let home = manager.createService(HomeService.self, name: name) else { return }
            instances.withLock { _ = $0[name, default: []].insert(ObjectIdentifier(home)) }
        }
        #expect(counter.count == 4)
        #expect(instances.withLock { $0.values.map(\.count) } == [1, 1, 1, 1])
    }

    @Test func weakScopeSharesWhileHeldAndRecreatesAfterRelease() throws {
        let (manager, counter) = manager(.weak)
        weak var released: (any HomeService)?
        do {
            let first = try manager.resolve(HomeService.self)
            #expect(try manager.resolve(HomeService.self) === first)
            released = first
        }
        #expect(released == nil)
        _ = try manager.resolve(HomeService.self)
        #expect(counter.count == 2)
    }

    @Test func weakScopeNeedsAClass() {
        let manager = ServiceManager()
        manager.register(AccountService.self, scope: .weak) { _, _ in StructAccountService() }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(AccountService.self) }
        #expect(
            error?.kind
                == .weakScopeNeedsClass(
                    service: "BeeHiveServicesTests.AccountService", implementation: "BeeHiveServicesTests.StructAccountService"))
    }

    @Test func valueTypeSingletons() throws {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(AccountService.self, scope: .singleton) { _, _ in
            counter.increment()
            return StructAccountService()
        }
        #expect(try manager.resolve(AccountService.self).user == "struct")
        #expect(try manager.resolve(AccountService.self).user == "struct")
        #expect(counter.count == 1)
    }

    @Test func singletonArgumentsAreThoseOfTheFirstLookup() throws {
        let manager = ServiceManager()
        manager.register(Greeting.self, scope: .singleton) { _, arguments in Greeting(text: try arguments.argument(at: 0)) }
        #expect(try manager.resolve(Greeting.self, arguments: ["first"]).text == "first")
        #expect(try manager.resolve(Greeting.self, arguments: ["second"]).text == "first")
    }

    @Test func discardedInstancesAreCreatedAgain() throws {
        let (manager, counter) = manager(.singleton)
        let first = try manager.resolve(HomeService.self)
        manager.discardInstances(of: HomeService.self)
        #expect(try manager.resolve(HomeService.self) !== first)
        #expect(counter.count == 2)

        let (named, _) = self.manager(.named)
        let a = try named.resolve(HomeService.self, name: "a")
        let b = try named.resolve(HomeService.self, name: "b")
        named.discardInstances(of: HomeService.self, name: "a")
        #expect(try named.resolve(HomeService.self, name: "a") !== a)
        #expect(try named.resolve(HomeService.self, name: "b") === b)
    }

    @Test func reregistrationDropsTheOldSingleton() throws {
        let manager = ServiceManager(duplicatePolicy: .override)
        manager.register(HomeService.self, scope: .singleton) { _, _ in HomeServiceImpl() }
        #expect(try manager.resolve(HomeService.self).title == "home")
        manager.register(HomeService.self, scope: .singleton) { _, _ in OtherHomeServiceImpl() }
        #expect(try manager.resolve(HomeService.self).title == "other home")
    }
}
