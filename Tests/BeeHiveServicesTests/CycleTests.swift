import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

protocol CycleA: AnyObject {}
protocol CycleB: AnyObject {}
protocol CycleC: AnyObject {}

final class CycleNode: CycleA, CycleB, CycleC {
    let dependencies: [AnyObject]

    init(_ dependencies: AnyObject...) {
        self.dependencies = dependencies
    }
}

@Suite struct CycleTests {
    private let a = "BeeHiveServicesTests.CycleA"
    private let b = "BeeHiveServicesTests.CycleB"
    private let c = "BeeHiveServicesTests.CycleC"

    @Test(arguments: [ServiceScope.transient, .singleton, .named, .weak])
    func twoServicesNeedingEachOther(scope: ServiceScope) {
        let manager = ServiceManager()
        manager.register(CycleA.self, scope: scope) { resolver, _ in CycleNode(try resolver.resolve(CycleB.self)) }
        manager.register(CycleB.self, scope: scope) { resolver, _ in CycleNode(try resolver.resolve(CycleA.self)) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(CycleA.self) }
        #expect(error?.kind == .cycle(chain: [a, b, a]))
        #expect(error?.description.contains("dependency cycle: \(a) -> \(b) -> \(a)") == true)
        // Nothing half-made was kept: the next lookup finds the same cycle.
        let again = #expect(throws: ServiceError.self) { _ = try manager.resolve(CycleB.self) }
        #expect(again?.kind == .cycle(chain: [b, a, b]))
    }

    @Test func serviceNeedingItself() {
        let manager = ServiceManager()
        manager.register(CycleA.self, scope: .singleton) { resolver, _ in CycleNode(try resolver.resolve(CycleA.self)) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(CycleA.self) }
        #expect(error?.kind == .cycle(chain: [a, a]))
    }

    @Test func longerCycleThroughMixedScopes() {
        let manager = ServiceManager()
        manager.register(CycleA.self) { resolver, _ in CycleNode(try resolver.resolve(CycleB.self)) }
        manager.register(CycleB.self, scope: .singleton) { resolver, _ in CycleNode(try resolver.resolve(CycleC.self)) }
        manager.register(CycleC.self) { resolver, _ in CycleNode(try resolver.resolve(CycleA.self)) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(CycleA.self) }
        #expect(error?.kind == .cycle(chain: [a, b, c, a]))
        #expect(manager.createService(CycleC.self) == nil)
    }

    @Test func factoryCallingTheManagerDirectlyIsStillCaught() {
        let manager = ServiceManager()
        // Unowned: the manager keeps its factories, and outlives every resolution here.
        manager.register(CycleA.self) { [unowned manager] _, _ in CycleNode(try manager.resolve(CycleB.self)) }
        manager.register(CycleB.self) { [unowned manager] _, _ in CycleNode(try manager.resolve(CycleA.self)) }
        let error = #expect(throws: ServiceError.self) { _ = try manager.resolve(CycleA.self) }
        #expect(error?.kind == .cycle(chain: [a, b, a]))
    }

    @Test func sharedDependencyIsNotACycle() throws {
        let counter = Counter()
        let manager = ServiceManager()
        manager.register(CycleC.self, scope: .singleton) { _, _ in
            counter.increment()
            return CycleNode()
        }
        manager.register(CycleB.self) { resolver, _ in CycleNode(try resolver.resolve(CycleC.self)) }
        manager.register(CycleA.self) { resolver, _ in
            CycleNode(try resolver.resolve(CycleB.self), try resolver.resolve(CycleB.self), try resolver.resolve(CycleC.self))
        }
        let root = try #require(try manager.resolve(CycleA.self) as? CycleNode)
        #expect(root.dependencies.count == 3)
        #expect(counter.count == 1)
    }

    /// Thread 1 creates singleton A, which needs B; thread 2 creates singleton B, which needs A. Each must get a
    /// cycle error instead of waiting forever for the other, and each factory runs once: the thread left
    /// waiting gets the failed creation's error rather than running that factory again.
    @Test func cycleSplitAcrossThreadsFailsInsteadOfDeadlocking() {
        let barrier = Barrier(parties: 2)
        let runs = Locked<[String]>([])
        let manager = ServiceManager()
        manager.register(CycleA.self, scope: .singleton) { resolver, _ in
            runs.withLock { $0.append("A") }
            barrier.arriveAndWait()
            return CycleNode(try resolver.resolve(CycleB.self))
        }
        manager.register(CycleB.self, scope: .singleton) { resolver, _ in
            runs.withLock { $0.append("B") }
            barrier.arriveAndWait()
            return CycleNode(try resolver.resolve(CycleA.self))
        }
        let errors = Locked<[ServiceError]>([])
        onThreads(2) { index in
            do throws(ServiceError) {
                _ = index == 0 ? try manager.resolve(CycleA.self) as AnyObject : try manager.resolve(CycleB.self) as AnyObject
            } catch {
                errors.withLock { $0.append(error) }
            }
        }
        let chains = errors.withLock { $0 }.compactMap { error -> [String]? in
            guard case .cycle(let chain) = error.kind else { return nil }
            return chain
        }
        #expect(chains.count == 2)
        #expect(runs.withLock { $0 }.sorted() == ["A", "B"])
        for chain in chains {
            #expect(chain.first == chain.last)
            #expect(Set(chain) == [a, b])
        }
    }
}
