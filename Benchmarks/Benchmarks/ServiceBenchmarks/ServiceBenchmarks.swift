import BenchSupport
import Benchmark
import BeeHive
import Dispatch
import Swinject

/// Service lookup: BeeHive's `ServiceManager` against Swinject 2.10.0's synchronized resolver, for the same
/// protocols and implementations, in one run. Each sample is 1,000 lookups; results are per lookup.
protocol Greeter: AnyObject, Sendable { func greeting() -> Int }
final class GreeterImpl: Greeter { func greeting() -> Int { 42 } }

protocol Stamp: AnyObject, Sendable {}
final class StampImpl: Stamp {}

protocol Account: AnyObject, Sendable {}
final class AccountImpl: Account {}

protocol Cart: AnyObject, Sendable { var account: any Account { get } }
final class CartImpl: Cart {
    let account: any Account
    init(account: any Account) { self.account = account }
}

/// Both containers, filled the same way: a singleton, a transient service, and a transient service with one
/// transient dependency.
func makeManager() -> ServiceManager {
    let manager = ServiceManager()
    manager.register(Greeter.self, scope: .singleton) { _, _ in GreeterImpl() }
    manager.register(Stamp.self) { _, _ in StampImpl() }
    manager.register(Account.self) { _, _ in AccountImpl() }
    manager.register(Cart.self) { resolver, _ in CartImpl(account: try resolver.resolve(Account.self)) }
    return manager
}

func makeSwinjectResolver() -> any Resolver {
    let container = Container()
    container.register(Greeter.self) { _ in GreeterImpl() }.inObjectScope(.container)
    container.register(Stamp.self) { _ in StampImpl() }.inObjectScope(.transient)
    container.register(Account.self) { _ in AccountImpl() }.inObjectScope(.transient)
    container.register(Cart.self) { resolver in CartImpl(account: resolver.resolve(Account.self)!) }
        .inObjectScope(.transient)
    return container.synchronize()
}

/// Copies the reference out of memory as a lookup does: the result is returned retained, and the caller
/// releases it. Not optimized, so that the optimizer cannot turn it into a borrow of the value in place.
@_optimize(none)
func copyOut(_ pointer: UnsafeMutablePointer<any Greeter>) -> any Greeter {
    pointer.pointee
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Tolerances.configuration(scalingFactor: .kilo)
    let manager = makeManager()
    let swinject = makeSwinjectResolver()
    precondition(try! manager.resolve(Greeter.self) === manager.resolve(Greeter.self))
    precondition(swinject.resolve(Greeter.self)! === swinject.resolve(Greeter.self)!)

    Benchmark("Lookup.BeeHive@cached-singleton", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try manager.resolve(Greeter.self))
        }
    }
    // 64 threads at once, 1,000 cached lookups each: one iteration is all 64,000. scripts/plot-benchmarks divides
    // by 64,000 and checks the aggregate rate against one thread's: no lock may serialise the cached path.
    Benchmark("Lookup.BeeHive@cached-singleton-64-threads", configuration: Tolerances.configuration()) { benchmark in
        for _ in benchmark.scaledIterations {
            DispatchQueue.concurrentPerform(iterations: 64) { _ in
                for _ in 0..<1000 { blackHole(try! manager.resolve(Greeter.self)) }
            }
        }
    }
    // The floor under both: copying a shared reference out of memory and releasing it, with no lookup. Any lookup
    // that returns a strong reference pays this: two atomic read-modify-writes of the instance's reference count,
    // whose cache line every thread shares.
    nonisolated(unsafe) let cachedGreeter = UnsafeMutablePointer<any Greeter>.allocate(capacity: 1)
    cachedGreeter.initialize(to: try! manager.resolve(Greeter.self))
    Benchmark("Lookup.retain-release@cached-singleton", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(copyOut(cachedGreeter))
        }
    }
    Benchmark("Lookup.retain-release@cached-singleton-64-threads", configuration: Tolerances.configuration()) { benchmark in
        for _ in benchmark.scaledIterations {
            DispatchQueue.concurrentPerform(iterations: 64) { _ in
                for _ in 0..<1000 { blackHole(copyOut(cachedGreeter)) }
            }
        }
    }
    Benchmark("Lookup.Swinject-synchronized@cached-singleton", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(Greeter.self)!)
        }
    }
    Benchmark("Lookup.BeeHive@transient", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try manager.resolve(Stamp.self))
        }
    }
    Benchmark("Lookup.Swinject-synchronized@transient", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(Stamp.self)!)
        }
    }
    Benchmark("Lookup.BeeHive@one-dependency", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try manager.resolve(Cart.self))
        }
    }
    Benchmark("Lookup.Swinject-synchronized@one-dependency", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinject.resolve(Cart.self)!)
        }
    }
}
