@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import BeeHiveLocks
import Foundation
import Testing

protocol DeferredGreeter: Sendable { func greet() -> String }

final class DeferredGreeterImpl: DeferredGreeter, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
    func greet() -> String { "hello from a deferred plugin" }
}

protocol DeferredCounter: Sendable { func count() -> Int }

final class DeferredCounterImpl: DeferredCounter, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
    func count() -> Int { 42 }
}

final class DeferredRouteHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool {
        hiveEvents.add("deferred-route.handled \(parameters["id"] ?? "?")")
        return true
    }
}

final class AgainRouteHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool {
        hiveEvents.add("again-route.handled \(parameters["id"] ?? "?")")
        return true
    }
}

/// The racing test's own handler: tests run in parallel, and `AgainRouteHandler`'s events are counted.
final class RaceRouteHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool { true }
}

final class DeferredTarget: MediatorTarget {
    enum Action: String { case ping }
    init() {}
    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? { "pong" }
}

final class DeferredLaunchModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "deferred-launch" } }
final class OnDemandFirst: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "ondemand-first" } }
final class OnDemandSecond: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "ondemand-second" } }
final class OnDemandLaunchModule: HiveRecordingModule, @unchecked Sendable { override class var tag: String { "ondemand-launch" } }

/// In a plugin loaded after start: its setUp, which runs in a delivery, asks for a deferred service.
final class DeferredAskingModule: Module, @unchecked Sendable {
    init() {}
    func setUp(_ context: ModuleContext) throws {
        do {
            _ = try hubHive("deferred-hook")?.services.resolve((any DeferredGreeter).self)
            hiveEvents.add("deferred-hook.resolved")
        } catch {
            if case .pluginUnavailable(let failure) = error.kind, failure.reason == .askedInsideHook {
                hiveEvents.add("deferred-hook.askedInsideHook \(URL(filePath: failure.path).lastPathComponent)")
            } else {
                hiveEvents.add("deferred-hook.other \(error)")
            }
        }
    }
}

/// A folder of C plugins, each a copy of a fixture build under a name of its own (tests run in parallel in one
/// process, and each hive sees only the files its test names).
struct DeferredPluginFolder {
    let root: URL
    var path: String { root.path }
    private(set) var files: [URL] = []

    init(_ name: String) throws {
        root = try FixtureHost.temporaryDirectory("plugin-folder-\(name)")
        chmod(root.path, 0o755)
    }

    static func service(_ proto: String, _ type: String) -> [String] {
        ["DEFERRED_SERVICE_PROTOCOL=BeeHiveIntegrationTests.\(proto)", "DEFERRED_SERVICE_TYPE=BeeHiveIntegrationTests.\(type)"]
    }

    mutating func add(_ name: String, _ defines: [String]) throws {
        let built = try SystemTools.cPlugin("deferred.c", defines: defines)
        let file = root.appending(path: "lib\(name).so")
        try FileManager.default.copyItem(at: built, to: file)
        chmod(file.path, 0o644)
        files.append(file)
    }

    func file(_ name: String) -> String { root.appending(path: "lib\(name).so").path }

    func isLoaded(_ name: String) -> Bool { Plugin.loadedIdentity(atPath: file(name)) != nil }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite(.timeLimit(.minutes(10))) struct HivePluginDirectoryTests {
    @Test func startLoadsNoneAndFirstUseOfAServiceLoadsExactlyItsPlugin() async throws {
        var folder = try DeferredPluginFolder("first-use")
        defer { folder.remove() }
        try folder.add("first-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        try folder.add("first-counter", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1])))
        #expect(try hive.addPluginDirectory(folder.path, cache: nil).isEmpty)
        try await HiveHost(hive: hive).start()
        #expect(!folder.isLoaded("first-greeter") && !folder.isLoaded("first-counter"))

        #expect(hive.services.canCreateService((any DeferredGreeter).self))
        #expect(!folder.isLoaded("first-greeter"), "canCreateService answers from the index")
        #expect(try hive.services.resolve((any DeferredGreeter).self).greet() == "hello from a deferred plugin")
        #expect(folder.isLoaded("first-greeter"))
        #expect(!folder.isLoaded("first-counter"))
        #expect(hive.services.createService((any DeferredCounter).self)?.count() == 42)
        #expect(folder.isLoaded("first-counter"))
        #expect(hive.diagnostics.isEmpty, "\(hive.diagnostics)")
        // Loaded through the hive, once each: one unload retires each plugin.
        try hive.unloadPlugin(atPath: folder.file("first-greeter"))
        try hive.unloadPlugin(atPath: folder.file("first-counter"))
        #expect(!folder.isLoaded("first-greeter") && !folder.isLoaded("first-counter"))
    }

    @Test func sixtyFourThreadsAskingForADeferredServiceLoadItOnce() throws {
        var folder = try DeferredPluginFolder("threads")
        defer { folder.remove() }
        try folder.add("threads-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0])))
        try hive.addPluginDirectory(folder.path, cache: nil)
        let answers = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let answer = (try? hive.services.resolve((any DeferredGreeter).self).greet()) ?? "failed"
            answers.withLock { $0.append(answer) }
        }
        #expect(answers.withLock { $0 } == Array(repeating: "hello from a deferred plugin", count: 64))
        // One load counted: the first unload retires it, a second finds nothing.
        try hive.unloadPlugin(atPath: folder.file("threads-greeter"))
        #expect(!folder.isLoaded("threads-greeter"))
        #expect(throws: HiveError.self) { try hive.unloadPlugin(atPath: folder.file("threads-greeter")) }
    }

    @Test func aRouteAndATargetLoadTheirPluginsOnFirstUse() throws {
        var folder = try DeferredPluginFolder("route-target")
        defer { folder.remove() }
        try folder.add("rt-route", ["DEFERRED_ROUTE_PATTERN=\"/deferred/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.DeferredRouteHandler"])
        try folder.add("rt-target", ["DEFERRED_TARGET_NAME=deferredTarget", "DEFERRED_TARGET_TYPE=BeeHiveIntegrationTests.DeferredTarget"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1])))
        #expect(try hive.addPluginDirectory(folder.path, cache: nil).isEmpty)

        #expect(hive.router.canRoute("/deferred/7"))
        #expect(!hive.router.canRoute("/elsewhere/7"))
        #expect(hive.mediator.canPerform(target: "deferredTarget", action: "ping"))
        #expect(!folder.isLoaded("rt-route") && !folder.isLoaded("rt-target"), "canRoute and canPerform load nothing")
        #expect(hive.pluginsLoadedOnFirstUse.isEmpty)

        guard case .handled(let match) = try hive.open("/deferred/7") else {
            Issue.record("the deferred route did not handle the URL")
            return
        }
        #expect(match.route.pattern.description == "/deferred/:id")
        #expect(hiveEvents.entries(withPrefix: "deferred-route.") == ["handled 7"])
        #expect(folder.isLoaded("rt-route") && !folder.isLoaded("rt-target"))
        #expect(try hive.mediator.perform(target: "deferredTarget", action: "ping") as? String == "pong")
        #expect(folder.isLoaded("rt-target"))
        // Each load is told with what was asked for, in order; later uses add nothing.
        _ = try hive.open("/deferred/8")
        #expect(hive.pluginsLoadedOnFirstUse == [
            PluginFirstUse(path: folder.file("rt-route"), requested: RecordIdentity(kind: .route, name: "/deferred/:id")),
            PluginFirstUse(path: folder.file("rt-target"), requested: RecordIdentity(kind: .target, name: "deferredTarget")),
        ])
        #expect(hive.diagnostics.isEmpty, "\(hive.diagnostics)")
    }

    @Test func aPluginDeletedAfterIndexingIsATypedErrorAtFirstUse() throws {
        var folder = try DeferredPluginFolder("deleted")
        defer { folder.remove() }
        try folder.add("deleted-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        try folder.add("deleted-route", ["DEFERRED_ROUTE_PATTERN=\"/gone/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.DeferredRouteHandler"])
        try folder.add("deleted-target", ["DEFERRED_TARGET_NAME=goneTarget", "DEFERRED_TARGET_TYPE=BeeHiveIntegrationTests.DeferredTarget"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1], folder.files[2])))
        try hive.addPluginDirectory(folder.path, cache: nil)
        for file in folder.files { try FileManager.default.removeItem(at: file) }

        let greeter = folder.file("deleted-greeter")
        #expect {
            try hive.services.resolve((any DeferredGreeter).self)
        } throws: { error in
            guard let error = error as? ServiceError, case .pluginUnavailable(let failure) = error.kind else { return false }
            return failure.path == greeter && failure.reason == .vanished
                && failure.requested == RecordIdentity(kind: .service, name: "BeeHiveIntegrationTests.DeferredGreeter")
                && error.description.contains(greeter)
        }
        #expect(hive.services.createService((any DeferredGreeter).self) == nil)
        #expect {
            try hive.router.route("/gone/1")
        } throws: { error in
            guard case RoutingError.pluginUnavailable(let failure) = error else { return false }
            return failure.path == folder.file("deleted-route") && failure.requested == RecordIdentity(kind: .route, name: "/gone/:id")
        }
        #expect {
            try hive.mediator.perform(target: "goneTarget", action: "ping")
        } throws: { error in
            guard case MediatorError.pluginUnavailable(let failure) = error else { return false }
            return failure.path == folder.file("deleted-target") && failure.requested == RecordIdentity(kind: .target, name: "goneTarget")
        }
        // Nothing half registered: no object reached the hive, and nothing answers.
        #expect(hive.registry.objects.isEmpty)
        #expect(hive.mediator.targetNames.isEmpty)
        #expect(hive.router.routes().isEmpty)
    }

    @Test func aPluginCarryingModulesLoadsAtLaunchInLifecycleOrder() async throws {
        var folder = try DeferredPluginFolder("modules")
        defer { folder.remove() }
        try folder.add("modules-launch", ["DEFERRED_MODULE=BeeHiveIntegrationTests.DeferredLaunchModule"])
        try folder.add("modules-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1])))
        #expect(try hive.addPluginDirectory(folder.path, cache: nil).isEmpty)
        #expect(folder.isLoaded("modules-launch"), "a plugin with modules loads when its folder is added")
        #expect(!folder.isLoaded("modules-greeter"))
        #expect(!hive.modules.isStarted)
        #expect(hiveEvents.entries(withPrefix: "deferred-launch.").isEmpty)
        try await HiveHost(hive: hive).start()
        #expect(hiveEvents.entries(withPrefix: "deferred-launch.") == ["setUp", "init", "splash"])
        #expect(!folder.isLoaded("modules-greeter"))
    }

    @Test func onDemandModulesCatchUpInOrder() async throws {
        var folder = try DeferredPluginFolder("on-demand")
        defer { folder.remove() }
        try folder.add("ondemand-modules", [
            "DEFERRED_ON_DEMAND", "DEFERRED_MODULE=BeeHiveIntegrationTests.OnDemandFirst",
            "DEFERRED_SECOND_MODULE=BeeHiveIntegrationTests.OnDemandSecond",
            "DEFERRED_TARGET_NAME=odTarget", "DEFERRED_TARGET_TYPE=BeeHiveIntegrationTests.DeferredTarget",
        ])
        try folder.add("ondemand-launch", ["DEFERRED_MODULE=BeeHiveIntegrationTests.OnDemandLaunchModule"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1])))
        #expect(try hive.addPluginDirectory(folder.path, cache: nil).isEmpty)
        #expect(!folder.isLoaded("ondemand-modules"), "a plugin whose modules are all on-demand waits for first use")
        #expect(folder.isLoaded("ondemand-launch"), "a plugin with a launch module loads when its folder is added")
        try await HiveHost(hive: hive).start()
        #expect(hiveEvents.entries(withPrefix: "ondemand-") == ["launch.setUp", "launch.init", "launch.splash"])
        #expect(!folder.isLoaded("ondemand-modules"))

        #expect(try hive.mediator.perform(target: "odTarget", action: "ping") as? String == "pong")
        #expect(folder.isLoaded("ondemand-modules"))
        // The second module depends on the first and is recorded before it: the catch-up follows the launch
        // order, phase by phase, as a launch would.
        #expect(hiveEvents.entries(withPrefix: "ondemand-") == [
            "launch.setUp", "launch.init", "launch.splash",
            "first.setUp", "second.setUp", "first.init", "second.init", "first.splash", "second.splash",
        ])
        #expect(hive.pluginsLoadedOnFirstUse == [
            PluginFirstUse(
                path: folder.file("ondemand-modules"), requested: RecordIdentity(kind: .target, name: "odTarget")),
        ])
        #expect(hive.diagnostics.isEmpty, "\(hive.diagnostics)")
        try hive.unloadPlugin(atPath: folder.file("ondemand-modules"))
        // Leaving, each module is torn down and unmounted in reverse launch order.
        #expect(hiveEvents.entries(withPrefix: "ondemand-").suffix(4) == [
            "second.tearDown", "second.unmount", "first.tearDown", "first.unmount",
        ])
    }

    @Test func aPluginUnloadedAfterFirstUseLoadsAgainOnTheNextUse() throws {
        var folder = try DeferredPluginFolder("again")
        defer { folder.remove() }
        try folder.add("again-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        try folder.add("again-route", ["DEFERRED_ROUTE_PATTERN=\"/again/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.AgainRouteHandler"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], folder.files[1])))
        try hive.addPluginDirectory(folder.path, cache: nil)
        #expect(try hive.services.resolve((any DeferredGreeter).self).greet() == "hello from a deferred plugin")
        _ = try hive.open("/again/one")
        #expect(folder.isLoaded("again-greeter") && folder.isLoaded("again-route"))

        try hive.unloadPlugin(atPath: folder.file("again-greeter"))
        try hive.unloadPlugin(atPath: folder.file("again-route"))
        #expect(!folder.isLoaded("again-greeter") && !folder.isLoaded("again-route"))
        // Deferred again: the index answers, and nothing loads until something is used.
        #expect(hive.services.canCreateService((any DeferredGreeter).self))
        #expect(hive.router.canRoute("/again/two"))
        #expect(!folder.isLoaded("again-greeter") && !folder.isLoaded("again-route"))

        #expect(try hive.services.resolve((any DeferredGreeter).self).greet() == "hello from a deferred plugin")
        #expect(folder.isLoaded("again-greeter"))
        guard case .handled = try hive.open("/again/two") else {
            Issue.record("the route of the reloaded plugin did not handle the URL")
            return
        }
        #expect(folder.isLoaded("again-route"))
        #expect(hiveEvents.entries(withPrefix: "again-route.handled ") == ["one", "two"])
        let greeter = PluginFirstUse(
            path: folder.file("again-greeter"), requested: RecordIdentity(kind: .service, name: "BeeHiveIntegrationTests.DeferredGreeter"))
        let route = PluginFirstUse(path: folder.file("again-route"), requested: RecordIdentity(kind: .route, name: "/again/:id"))
        #expect(hive.pluginsLoadedOnFirstUse == [greeter, route, greeter, route])
        #expect(hive.diagnostics.isEmpty, "\(hive.diagnostics)")
        try hive.unloadPlugin(atPath: folder.file("again-greeter"))
        try hive.unloadPlugin(atPath: folder.file("again-route"))
    }

    /// A first use and an unload of the same plugin racing on two threads: whatever order they end in, the
    /// route either answers from the loaded plugin or loads it again. (An unload that came between the load
    /// and the dropping of its placeholders used to leave it unloaded with no placeholder: unroutable. That
    /// window is microseconds wide; this checks every round's outcome but cannot force the interleaving.)
    @Test func aFirstUseRacingAnUnloadLeavesTheRouteRoutable() throws {
        var folder = try DeferredPluginFolder("race")
        defer { folder.remove() }
        try folder.add("race-route", ["DEFERRED_ROUTE_PATTERN=\"/race/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.RaceRouteHandler"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0])))
        try hive.addPluginDirectory(folder.path, cache: nil)
        let path = folder.file("race-route")
        for round in 0..<200 {
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 {
                    _ = try? hive.open("/race/\(round)")
                } else {
                    _ = try? hive.unloadPlugin(atPath: path)
                }
            }
            guard case .handled = try hive.open("/race/check-\(round)") else {
                Issue.record("round \(round): /race/ reached no route, loaded: \(folder.isLoaded("race-route"))")
                return
            }
        }
    }

    /// 32 threads on the first use of each of 30 plugins, each thread using its route, its service and its
    /// target (starting with a different one): every call is answered, and each plugin loads once. A thread
    /// that missed on a copy of the tables read before another thread's load registered the plugin's routes
    /// used to find the placeholder gone and get `.unmatched`.
    @Test func thirtyTwoThreadsOnTheFirstUseOfEachOfThirtyPluginsAreAllAnswered() throws {
        var folder = try DeferredPluginFolder("swarm")
        defer { folder.remove() }
        let plugins = 30
        let threads = 32
        for plugin in 0..<plugins {
            try folder.add(
                "swarm\(plugin)",
                DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl") + [
                    "DEFERRED_SERVICE_NAME=\"swarm\(plugin)\"",
                    "DEFERRED_ROUTE_PATTERN=\"/swarm/\(plugin)/:id\"", "DEFERRED_ROUTE_TYPE=BeeHiveIntegrationTests.RaceRouteHandler",
                    "DEFERRED_TARGET_NAME=swarm\(plugin)", "DEFERRED_TARGET_TYPE=BeeHiveIntegrationTests.DeferredTarget",
                ])
        }
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files)))
        #expect(try hive.addPluginDirectory(folder.path, cache: nil).isEmpty)
        let failures = Locked<[String]>([])
        for plugin in 0..<plugins {
            let uses: [@Sendable (Int) -> String?] = [
                { thread in
                    let result = try? hive.router.route("/swarm/\(plugin)/\(thread)")
                    return result?.isHandled == true ? nil : "route: \(result.map { "\($0)" } ?? "threw")"
                },
                { _ in
                    let greeting = try? hive.services.resolve((any DeferredGreeter).self, name: "swarm\(plugin)").greet()
                    return greeting == "hello from a deferred plugin" ? nil : "service: \(greeting ?? "threw")"
                },
                { _ in
                    let answer = try? hive.mediator.perform(target: "swarm\(plugin)", action: "ping") as? String
                    return answer == "pong" ? nil : "target: \(answer ?? "threw")"
                },
            ]
            // Every thread is made before any starts, so that they ask together.
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for thread in 0..<threads {
                done.enter()
                Thread {
                    start.wait()
                    for step in 0..<uses.count {
                        if let failure = uses[(thread + step) % uses.count](thread) {
                            failures.withLock { $0.append("plugin \(plugin), thread \(thread): \(failure)") }
                        }
                    }
                    done.leave()
                }.start()
            }
            for _ in 0..<threads { start.signal() }
            guard done.wait(timeout: .now() + 120) == .success else {
                Issue.record("the threads of plugin \(plugin) did not finish")
                return
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let loaded = hive.pluginsLoadedOnFirstUse.map(\.path)
        #expect(loaded.count == plugins && Set(loaded) == Set(folder.files.map(\.path)), "\(loaded)")
        #expect(hive.diagnostics.isEmpty, "\(hive.diagnostics)")
        // Loaded once each through the hive: one unload retires each.
        for plugin in 0..<plugins {
            try hive.unloadPlugin(atPath: folder.file("swarm\(plugin)"))
            #expect(!folder.isLoaded("swarm\(plugin)"))
        }
    }

    @Test func firstUseFromAHookTheHiveRunsIsATypedErrorAndLoadsNothing() async throws {
        var folder = try DeferredPluginFolder("hook")
        defer { folder.remove() }
        try folder.add("hook-greeter", DeferredPluginFolder.service("DeferredGreeter", "DeferredGreeterImpl"))
        let asking = try SystemTools.cPlugin("deferred.c", defines: ["DEFERRED_MODULE=BeeHiveIntegrationTests.DeferredAskingModule"])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(folder.files[0], asking)))
        hubHives.withLock { $0["deferred-hook"] = hive }
        try hive.addPluginDirectory(folder.path, cache: nil)
        try await HiveHost(hive: hive).start()
        // The module catches up inside the delivery of its plugin's load.
        try hive.loadPlugin(atPath: asking.path)
        #expect(hiveEvents.entries(withPrefix: "deferred-hook.") == ["askedInsideHook libhook-greeter.so"])
        #expect(!folder.isLoaded("hook-greeter"))
        // Outside the hook, the same lookup loads the plugin.
        #expect(try hive.services.resolve((any DeferredGreeter).self).greet() == "hello from a deferred plugin")
        try hive.unloadPlugin(atPath: asking.path)
    }

    @Test func conflictsAndMissingModuleDependenciesAreReportedBeforeLoading() throws {
        var first = try DeferredPluginFolder("conflicts-a")
        var second = try DeferredPluginFolder("conflicts-b")
        defer {
            first.remove()
            second.remove()
        }
        try first.add("conflict-one", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        try second.add("conflict-two", DeferredPluginFolder.service("DeferredCounter", "DeferredCounterImpl"))
        try second.add("conflict-module", [
            "DEFERRED_MODULE=BeeHiveIntegrationTests.NoSuchDeferredModule", "DEFERRED_MODULE_DEPENDS=\"Nowhere.Provider\"",
        ])
        let hive = Hive(registry: AnnotationRegistry(source: OwnObjectsSource(first.files[0], second.files[0], second.files[1])))
        let found = hive.addPluginDirectories(
            fromEnvironment: [Hive.pluginPathVariable: "\(first.path)::\(second.path)"], cache: nil)
        let conflicts = found.compactMap { diagnostic -> PluginConflict? in
            if case .pluginConflict(let conflict) = diagnostic { conflict } else { nil }
        }
        #expect(conflicts == [
            PluginConflict(
                identity: RecordIdentity(kind: .service, name: "BeeHiveIntegrationTests.DeferredCounter"),
                paths: [second.file("conflict-two"), first.file("conflict-one")]),
        ])
        #expect(found.contains { diagnostic in
            guard case .missingModuleDependency(let module, let dependency, let plugin) = diagnostic else { return false }
            return module == "BeeHiveIntegrationTests.NoSuchDeferredModule" && dependency == "Nowhere.Provider"
                && plugin == second.file("conflict-module")
        })
        #expect(!first.isLoaded("conflict-one") && !second.isLoaded("conflict-two"))
        // Adding a folder again adds nothing.
        #expect(try hive.addPluginDirectory(first.path, cache: nil).isEmpty)
    }

    @Test func aWritableFolderIsRefusedWithItsPath() throws {
        let folder = try DeferredPluginFolder("writable")
        defer { folder.remove() }
        chmod(folder.path, 0o777)
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        #expect {
            try hive.addPluginDirectory(folder.path, cache: nil)
        } throws: { error in
            guard case HiveError.pluginFolder(let refusal) = error, case .writableByOthers = refusal.reason else { return false }
            return refusal.path == folder.path && refusal.role == .folder
        }
    }
}
