import BeeHive
import Dispatch
import Hummingbird
import Logging
import Synchronization

/// The routes of the hive's `HTTPModule`s, each under its path, and the plugin loads that requests are waiting
/// for. Paths are mounted while the server runs, which Hummingbird's router (built once) does not allow, so each
/// module gets a router of its own and requests are dispatched to it by path.
final class MountedRoutes<Context: RequestContext>: Sendable {
    struct Mount: Sendable {
        let path: String
        let module: String
        let responder: RouterResponder<Context>

        func serves(_ requestPath: Substring) -> Bool {
            path == "/" || requestPath == path || requestPath.hasPrefix(path + "/")
        }
    }

    /// What a plugin load that requests wait for ended in.
    enum LoadOutcome: Sendable {
        case loaded
        case failed(DeferredPluginError)
    }

    private struct Load {
        let url: String
        let task: Task<LoadOutcome, Never>
    }

    private struct State {
        /// Longest path first, so that `/a/b` wins over `/a`.
        var mounts: [Mount] = []
        /// Modules looked at already, mounted or not (not every module serves HTTP).
        var seen: Set<String> = []
        var load: Load?
    }

    private let hive: Hive
    private let logger: Logger
    private let state = Mutex(State())
    /// Plugin loads block on `dlopen` and on the modules' hooks: they run here, off Swift's cooperative pool.
    private let loader = DispatchQueue(label: "beehive.http.plugin-load")

    init(hive: Hive, logger: Logger) {
        self.hive = hive
        self.logger = logger
    }

    func mount(for path: Substring) -> Mount? {
        state.withLock { $0.mounts.first { $0.serves(path) } }
    }

    /// Mounts the routes of every `HTTPModule` of the hive not mounted yet. Runs on the loader's queue only, so
    /// that two passes never build the same module's routes; the modules' `addRoutes` run outside the lock.
    private func mountNewModules() {
        let names = hive.modules.modules.map(\.name)
        let fresh = state.withLock { state in names.filter { !state.seen.contains($0) } }
        var mounts: [Mount] = []
        var done: [String] = []
        for name in fresh {
            guard let type = _typeByName(name) as? any HTTPModule.Type else {
                done.append(name)
                continue
            }
            // A module still waiting for a dependency has no instance yet: it is mounted by a later pass.
            guard let mount = makeMount(type) else { continue }
            mounts.append(mount)
            done.append(name)
        }
        state.withLock { state in
            state.seen.formUnion(done)
            for mount in mounts {
                if let taken = state.mounts.first(where: { $0.path == mount.path }) {
                    logger.error("two HTTP modules claim one path; the first keeps it", metadata: [
                        "path": "\(mount.path)", "mounted": "\(taken.module)", "refused": "\(mount.module)",
                    ])
                    continue
                }
                state.mounts.append(mount)
            }
            state.mounts.sort { $0.path.count > $1.path.count }
        }
        for mount in mounts { logger.info("mounted HTTP routes", metadata: ["path": "\(mount.path)", "module": "\(mount.module)"]) }
    }

    /// `mountNewModules()` after the loads and rescans under way.
    func mountModules() async {
        await onLoader { self.mountNewModules() }
    }

    /// Loads the plugins `rescan` finds and mounts their modules; returns their paths.
    func rescan(_ rescan: PluginRescan) async -> [String] {
        await onLoader {
            let loaded = rescan.loadNewPlugins(into: self.hive)
            self.mountNewModules()
            return loaded
        }
    }

    private func makeMount<Module: HTTPModule>(_ type: Module.Type) -> Mount? {
        guard let module = hive.modules.module(type) else { return nil }
        let path = Self.normalized(type.httpPath)
        let router = Router(context: Context.self)
        module.addRoutes(to: router.group(RouterPath(path)))
        return Mount(path: path, module: Module.moduleName, responder: router.buildResponder())
    }

    /// `/greeter/` and `greeter` are `/greeter`.
    static func normalized(_ path: String) -> String {
        "/" + path.split(separator: "/").joined(separator: "/")
    }

    /// Loads the plugin that claims `url` through the hive and mounts its modules. Requests that arrive while a
    /// load runs wait for it rather than start another, and then look for their mount again: however many ask,
    /// one load runs at a time and each plugin loads once.
    func loadPlugin(claiming url: String) async -> LoadOutcome {
        while true {
            let (load, isOwn) = state.withLock { state -> (Load, Bool) in
                if let load = state.load { return (load, load.url == url) }
                let load = Load(url: url, task: Task { await self.runLoad(url) })
                state.load = load
                return (load, true)
            }
            let outcome = await load.task.value
            if isOwn { return outcome }
        }
    }

    /// Runs `work` on the loader's queue, after the loads and rescans before it.
    private func onLoader<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            loader.async { continuation.resume(returning: work()) }
        }
    }

    private func runLoad(_ url: String) async -> LoadOutcome {
        let outcome = await onLoader { self.loadBlocking(url) }
        state.withLock { $0.load = nil }
        return outcome
    }

    private func loadBlocking(_ url: String) -> LoadOutcome {
        let outcome: LoadOutcome
        do throws(RoutingError) {
            _ = try hive.router.route(url)
            outcome = .loaded
        } catch .pluginUnavailable(let error) {
            outcome = .failed(error)
        } catch {
            // A redirect loop of the host's own interceptors: nothing was loaded.
            logger.error("routing a claimed HTTP path failed", metadata: ["url": "\(url)", "error": "\(error)"])
            outcome = .loaded
        }
        mountNewModules()
        return outcome
    }
}
