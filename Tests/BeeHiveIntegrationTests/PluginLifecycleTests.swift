@_spi(BeeHiveInternals) import BeeHiveRegistry
@testable import BeeHive
import BeeHiveLocks
import Foundation
import Testing

/// Holds the first thread that reaches a pause point of a hive's plugin lifecycle until the test releases it,
/// so that a test runs loads, unloads and refreshes in the order it chooses. Points not held are noted as
/// reached and passed through.
final class LifecycleHolds: Sendable {
    private let held: Set<PluginLifecycle.PausePoint>
    private let state = Locked<(taken: Set<PluginLifecycle.PausePoint>, reached: [PluginLifecycle.PausePoint])>(([], []))
    private let arrivals = Locked<[PluginLifecycle.PausePoint: DispatchSemaphore]>([:])
    private let releases = Locked<[PluginLifecycle.PausePoint: DispatchSemaphore]>([:])

    init(holding held: Set<PluginLifecycle.PausePoint>, in hive: Hive) {
        self.held = held
        for point in [PluginLifecycle.PausePoint.firstUseOpening, .firstUseOpened, .firstUseWaiting, .loadCounted, .unloadCounted, .unloadDelivered] {
            arrivals.withLock { $0[point] = DispatchSemaphore(value: 0) }
            releases.withLock { $0[point] = DispatchSemaphore(value: 0) }
        }
        hive.pluginLifecycle.pause.withLock { $0 = { [self] point, _ in arrive(at: point) } }
    }

    private func arrive(at point: PluginLifecycle.PausePoint) {
        let hold = state.withLock { state in
            state.reached.append(point)
            return held.contains(point) && state.taken.insert(point).inserted
        }
        arrivals.withLock { $0[point] }?.signal()
        if hold { releases.withLock { $0[point] }?.wait() }
    }

    /// Waits until a thread reaches `point` (at most 60 s); false if none did.
    func waitUntilReached(_ point: PluginLifecycle.PausePoint) -> Bool {
        arrivals.withLock { $0[point] }?.wait(timeout: .now() + 60) == .success
    }

    func release(_ point: PluginLifecycle.PausePoint) { releases.withLock { $0[point] }?.signal() }

    var reached: [PluginLifecycle.PausePoint] { state.withLock { $0.reached } }
}

/// Runs `body` on a thread of its own; `join` waits for its result.
final class Side<Value: Sendable>: Sendable {
    private let result = Locked<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [result, done] in
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
    }

    func join() -> Value? {
        guard done.wait(timeout: .now() + 120) == .success else { return nil }
        return result.withLock { $0 }
    }
}

/// The orderings of first uses, unloads and refreshes that the lifecycle's model explores
/// (Model/plugin-lifecycle.pml), each run deterministically with pause points, then a stress run of all of
/// them at once with the lifecycle's invariants checked after every step.
@Suite(.timeLimit(.minutes(10))) struct PluginLifecycleTests {
    private static func routeFolder(_ name: String, plugins: Int = 1) throws -> (DeferredPluginFolder, Hive) {
        var folder = try DeferredPluginFolder(name)
        for plugin in 0..<plugins {
            try folder.add(
                "\(name)\(plugin)",
                ["DEFERRED_ROUTE_PATTERN=\"/\(name)/\(plugin)/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.RaceRouteHandler"])
        }
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files)))
        try hive.addPluginDirectory(folder.path, cache: nil)
        return (folder, hive)
    }

    private static func isHandled(_ hive: Hive, _ url: String) -> Bool {
        (try? hive.router.route(url))?.isHandled == true
    }

    /// A first use loads the plugin, and before it marks it loaded an unload retires it. The first use must
    /// leave it deferred, so that the next use loads it again: the ordering in which the plugin used to stay
    /// loaded with its routes unreachable.
    @Test func anUnloadBetweenAFirstUsesLoadAndItsEndLeavesThePluginDeferred() throws {
        let (folder, hive) = try Self.routeFolder("race-end")
        defer { folder.remove() }
        let holds = LifecycleHolds(holding: [.firstUseOpened], in: hive)
        let path = folder.file("race-end0")
        let first = Side { Self.isHandled(hive, "/race-end/0/a") }
        try #require(holds.waitUntilReached(.firstUseOpened))
        #expect(folder.isLoaded("race-end0"))
        try hive.unloadPlugin(atPath: path)
        #expect(!folder.isLoaded("race-end0"))
        holds.release(.firstUseOpened)
        // Its plugin was unloaded while it ran: unmatched is the one answer it may give besides handled.
        let answered: Bool? = first.join()
        #expect(answered != nil)
        #expect(hive.pluginLifecycle.problems() == [])
        #expect(!hive.pluginLifecycle.isLoaded(path: path))
        #expect(Self.isHandled(hive, "/race-end/0/b"), "the next use loads the plugin again")
        #expect(folder.isLoaded("race-end0"))
        #expect(hive.pluginLifecycle.problems() == [])
        #expect(hive.pluginsLoadedOnFirstUse.map(\.path) == [path, path])
    }

    /// An unload's last step (deferring the plugin again) runs after the retirement's delivery. A first use
    /// that comes in between waits for it, then loads the plugin anew; the stale step used to re-defer a plugin
    /// loaded again meanwhile.
    @Test func aFirstUseDuringAnUnloadWaitsForItThenLoadsAnew() throws {
        let (folder, hive) = try Self.routeFolder("race-defer")
        defer { folder.remove() }
        let path = folder.file("race-defer0")
        #expect(Self.isHandled(hive, "/race-defer/0/a"))
        let holds = LifecycleHolds(holding: [.unloadDelivered], in: hive)
        let unload = Side { (try? hive.unloadPlugin(atPath: path)) != nil }
        try #require(holds.waitUntilReached(.unloadDelivered))
        let second = Side { Self.isHandled(hive, "/race-defer/0/b") }
        try #require(holds.waitUntilReached(.firstUseWaiting), "the first use waits for the unload")
        #expect(!holds.reached.contains(.firstUseOpening), "nothing is loaded while the unload runs")
        holds.release(.unloadDelivered)
        #expect(unload.join() == true)
        #expect(second.join() == true, "the first use is answered once the plugin loaded again")
        #expect(hive.pluginLifecycle.isLoaded(path: path))
        #expect(hive.pluginLifecycle.problems() == [])
        #expect(Self.isHandled(hive, "/race-defer/0/c"))
        try hive.unloadPlugin(atPath: path)
        #expect(!folder.isLoaded("race-defer0"))
        #expect(hive.pluginLifecycle.problems() == [])
    }

    /// `loadPlugin` counts the load, and before it delivers the records an unload takes the count back to
    /// zero. The unload retires the plugin's objects after the load took them in, so nothing of the plugin is
    /// registered once both are done; the load used to bring the retired objects back.
    @Test func anUnloadCountedBeforeALoadDeliversRetiresThePlugin() throws {
        var folder = try DeferredPluginFolder("race-count")
        defer { folder.remove() }
        try folder.add("race-count", ["DEFERRED_ROUTE_PATTERN=\"/race-count/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.RaceRouteHandler"])
        let path = folder.file("race-count")
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files)))
        let holds = LifecycleHolds(holding: [.loadCounted], in: hive)
        let load = Side { (try? hive.loadPlugin(atPath: path)) != nil }
        try #require(holds.waitUntilReached(.loadCounted))
        try hive.unloadPlugin(atPath: path)
        holds.release(.loadCounted)
        #expect(load.join() == true)
        #expect(!folder.isLoaded("race-count"), "the last unload let the loader unmap it")
        #expect(!hive.registry.objects.contains { $0.object.path == path })
        #expect(!Self.isHandled(hive, "/race-count/1"), "nothing of the unloaded plugin is reachable")
        #expect(throws: HiveError.self, "its one load was unloaded") { try hive.unloadPlugin(atPath: path) }
    }

    /// Two first uses together: the second waits for the first's load, which happens once, and both are
    /// answered.
    @Test func twoFirstUsesLoadThePluginOnceAndAreBothAnswered() throws {
        let (folder, hive) = try Self.routeFolder("race-two")
        defer { folder.remove() }
        let holds = LifecycleHolds(holding: [.firstUseOpening], in: hive)
        let first = Side { Self.isHandled(hive, "/race-two/0/a") }
        try #require(holds.waitUntilReached(.firstUseOpening))
        let second = Side { Self.isHandled(hive, "/race-two/0/b") }
        try #require(holds.waitUntilReached(.firstUseWaiting))
        #expect(!folder.isLoaded("race-two0"))
        holds.release(.firstUseOpening)
        #expect(first.join() == true)
        #expect(second.join() == true)
        #expect(holds.reached.filter { $0 == .firstUseOpening }.count == 1)
        #expect(hive.pluginsLoadedOnFirstUse.count == 1)
        #expect(hive.pluginLifecycle.problems() == [])
    }

    /// A refresh from another thread between an unload's count and its delivery takes the retirement in
    /// itself; the unload's delivery then finds nothing left to do, and the plugin is deferred again.
    @Test func aRefreshBetweenAnUnloadsCountAndItsDeliveryKeepsTheLifecycleWhole() throws {
        let (folder, hive) = try Self.routeFolder("race-refresh")
        defer { folder.remove() }
        let path = folder.file("race-refresh0")
        #expect(Self.isHandled(hive, "/race-refresh/0/a"))
        let holds = LifecycleHolds(holding: [.unloadCounted], in: hive)
        let unload = Side { (try? hive.unloadPlugin(atPath: path)) != nil }
        try #require(holds.waitUntilReached(.unloadCounted))
        hive.refresh()
        #expect(hive.router.routes().allSatisfy { !$0.pattern.text.hasPrefix("/race-refresh/") }, "the refresh removed the retired route")
        holds.release(.unloadCounted)
        #expect(unload.join() == true)
        #expect(!folder.isLoaded("race-refresh0"))
        #expect(!hive.pluginLifecycle.isLoaded(path: path))
        #expect(hive.pluginLifecycle.problems() == [])
        #expect(Self.isHandled(hive, "/race-refresh/0/b"), "deferred again: the next use loads it")
        #expect(hive.diagnostics.filter(\.isError).isEmpty, "\(hive.diagnostics)")
    }

    /// 64 threads mixing first uses, unloads and refreshes of 20 plugins (`BEEHIVE_STRESS_SECONDS`, 2 s unless
    /// set; the sanitizer runs give it 30 s), with the lifecycle's invariants checked after every step. Then
    /// each plugin answers its route, and once every load is unloaded nothing of any plugin is mapped.
    @Test func sixtyFourThreadsMixingFirstUsesUnloadsAndRefreshesKeepEveryInvariant() throws {
        let plugins = 20
        let (folder, hive) = try Self.routeFolder("stress", plugins: plugins)
        defer { folder.remove() }
        let seconds = ProcessInfo.processInfo.environment["BEEHIVE_STRESS_SECONDS"].flatMap(Double.init) ?? 2
        let seed = ProcessInfo.processInfo.environment["BEEHIVE_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        let deadline = Date(timeIntervalSinceNow: seconds)
        let failures = Locked<[String]>([])
        let steps = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { thread in
            // A linear congruential generator per thread, from the printed seed: a failing run can be replayed.
            var random = seed &+ UInt64(thread) &* 0x9E37_79B9_7F4A_7C15
            func next(_ bound: Int) -> Int {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((random >> 33) % UInt64(bound))
            }
            var local = 0
            while Date() < deadline {
                let plugin = next(plugins)
                let step: String
                switch next(10) {
                case 0..<6:
                    step = "route \(plugin)"
                    do {
                        _ = try hive.router.route("/stress/\(plugin)/\(thread)")
                    } catch {
                        failures.withLock { $0.append("\(step): \(error)") }
                    }
                case 6..<9:
                    step = "unload \(plugin)"
                    do throws(HiveError) {
                        try hive.unloadPlugin(atPath: folder.file("stress\(plugin)"))
                    } catch {
                        if case .pluginNotLoaded = error {} else { failures.withLock { $0.append("\(step): \(error)") } }
                    }
                default:
                    step = "refresh"
                    hive.refresh()
                }
                let problems = hive.pluginLifecycle.problems()
                if !problems.isEmpty { failures.withLock { $0.append("after \(step): \(problems)") } }
                local += 1
            }
            steps.withLock { $0 += local }
        }
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "seed \(seed) (BEEHIVE_TEST_SEED): \(found.prefix(5))")
        #expect(steps.withLock { $0 } > 64, "seed \(seed)")
        for plugin in 0..<plugins {
            #expect(Self.isHandled(hive, "/stress/\(plugin)/last"), "seed \(seed): plugin \(plugin) answers its route")
        }
        for plugin in 0..<plugins {
            while (try? hive.unloadPlugin(atPath: folder.file("stress\(plugin)"))) != nil {}
            #expect(!folder.isLoaded("stress\(plugin)"), "seed \(seed): stress\(plugin) is unmapped after its last unload")
        }
        #expect(hive.router.routes().allSatisfy { !$0.pattern.text.hasPrefix("/stress/") }, "seed \(seed): no route of an unloaded plugin is left")
        #expect(hive.pluginLifecycle.problems() == [], "seed \(seed)")
    }
}
