import BeeHive
import Foundation
import Synchronization

/// The service every worker resolves: a singleton whose creations are counted.
public protocol LoadCounter: AnyObject, Sendable {}

final class LoadCounterImpl: LoadCounter {
    static let creations = Atomic<Int>(0)

    init() { Self.creations.add(1, ordering: .relaxed) }
}

final class LoadModule: Module {
    init() {}
}

/// Many threads resolve a singleton, route URLs and trigger a custom event through `Hive.shared`, while
/// another thread loads and unloads plugins through it.
enum LoadTest {
    struct Result: Encodable {
        let threads: Int
        let iterations: Int
        let pluginRounds: Int
        let singletonCreations: Int
        let distinctInstances: Int
        let routed: Int
        let events: Int
        let failures: [String]
        /// Checked after the run: nothing registered in code was lost.
        let codeRoutesRoutable: Int
        let codeServiceResolves: Bool
        let codeModuleRegistered: Bool
        /// The plugins are left loaded after the last round: their records must be in the registry.
        let pluginObjectsAfter: [String]
    }

    static let routeCount = 100

    static func run(threads: Int, iterations: Int, pluginPaths: [String]) throws -> Result {
        let hive = Hive.shared
        hive.services.register(LoadCounter.self, scope: .singleton) { _, _ in LoadCounterImpl() }
        for index in 0..<routeCount {
            _ = try hive.router.addRoute("/load/\(index)/:item") { _ in true }
        }
        let module = LoadModule()
        try hive.modules.register(module)
        let event = try CustomEvent(1000)
        let events = Atomic<Int>(0)
        try hive.modules.addHandler(for: event, module: module) { _ in events.add(1, ordering: .relaxed) }
        hive.refresh()
        try hive.modules.start()

        let routed = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let instances = Mutex<Set<ObjectIdentifier>>([])
        let running = Atomic<Int>(threads)
        let workers = (0..<threads).map { worker in
            Thread {
                defer { running.subtract(1, ordering: .releasing) }
                var seen = Set<ObjectIdentifier>()
                for iteration in 0..<iterations {
                    do {
                        seen.insert(ObjectIdentifier(try hive.services.resolve(LoadCounter.self)))
                        if try hive.router.route("/load/\((worker + iteration) % routeCount)/\(iteration)").isHandled {
                            routed.add(1, ordering: .relaxed)
                        }
                        try hive.modules.trigger(event, customParameter: iteration)
                    } catch {
                        failures.withLock { $0.append("worker \(worker): \(error)") }
                    }
                }
                instances.withLock { $0.formUnion(seen) }
            }
        }
        for worker in workers { worker.start() }
        var rounds = 0
        repeat {
            for path in pluginPaths {
                do {
                    try hive.loadPlugin(atPath: path)
                    try hive.unloadPlugin(atPath: path)
                } catch {
                    failures.withLock { $0.append("plugin \(path): \(error)") }
                }
            }
            rounds += 1
        } while running.load(ordering: .acquiring) > 0
        for path in pluginPaths { try hive.loadPlugin(atPath: path) }

        let pluginNames = Set(pluginPaths.map { URL(fileURLWithPath: $0).lastPathComponent })
        return Result(
            threads: threads, iterations: iterations, pluginRounds: rounds,
            singletonCreations: LoadCounterImpl.creations.load(ordering: .relaxed),
            distinctInstances: instances.withLock { $0.count },
            routed: routed.load(ordering: .relaxed), events: events.load(ordering: .relaxed),
            failures: failures.withLock { $0 },
            codeRoutesRoutable: (0..<routeCount).filter { hive.router.canRoute("/load/\($0)/x") }.count,
            codeServiceResolves: hive.services.canCreateService(LoadCounter.self),
            codeModuleRegistered: hive.modules.module(LoadModule.self) === module,
            pluginObjectsAfter: hive.registry.objects.map { URL(fileURLWithPath: $0.object.path).lastPathComponent }
                .filter { pluginNames.contains($0) }.sorted())
    }
}
