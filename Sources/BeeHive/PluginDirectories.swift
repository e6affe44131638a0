import BeeHiveLocks
import BeeHiveRegistry
import BeeHiveRouter
import BeeHiveServices

/// The plugin folders of a hive: each folder's index with the `DeferredPlugins` that loads its plugins, and
/// what those plugins declare in the forms the managers ask by (a service key, a URL, a target name).
final class PluginDirectories: Sendable {
    struct Folder: Sendable {
        let index: PluginIndex
        let plugins: DeferredPlugins
    }

    private struct State {
        var folders: [Folder] = []
        /// Declared services that a lookup spells another way, by the identity it asks with (see
        /// `ServiceManager.deferredIdentity(ofDeclared:)`).
        var services: [RecordIdentity: RecordIdentity] = [:]
        var routes: [RouteID: RecordIdentity] = [:]
        /// The placeholders of loaded plugins, in `answeredRoutes`.
        var answered: [RouteID: RecordIdentity] = [:]
        var routeIdentities: Set<RecordIdentity> = []
        /// Indexes of added folders whose services are not looked through for `services` yet: done at the
        /// first service lookup, off the launch path.
        var pendingDeclarations: [PluginIndex] = []
        /// Indexes of added folders whose routes have no placeholders yet: parsing 100 patterns cost a third
        /// of adding a folder, so they are made at the first route lookup instead.
        var pendingRoutes: [PluginIndex] = []
        /// Plugins loaded while their routes were pending: those get no placeholder.
        var loadedWhilePending: Set<String> = []
        var firstUses: [PluginFirstUse] = []
    }

    private let state = Locked(State())
    /// The declared routes as placeholders: which declared route a URL reaches, found the way the hive's
    /// router finds it, without loading anything.
    private let routes = Router()
    /// The placeholders of the routes of loaded plugins, asked when `routes` has none for a URL: a lookup that
    /// read the hive's route tables before the plugin's routes were in them missed them, and must look again.
    private let answeredRoutes = Router()
    /// Held while placeholders are made or dropped, so that a lookup never sees half of them. It guards no
    /// value of its own, but holds a byte: a zero-sized value shares its address with the lock's own pointer,
    /// which the thread sanitizer then reports as a race between a locked access and the next `withLock`.
    private let placeholders = Locked(UInt8(0))

    var folders: [Folder] { state.withLock { $0.folders } }

    var firstUses: [PluginFirstUse] { state.withLock { $0.firstUses } }

    /// Adds a folder's index; false when that folder was added already. A declaration keeps the first plugin
    /// declaring it.
    func add(_ folder: Folder, routerConfiguration: RouterConfiguration) -> Bool {
        let added = state.withLock { state in
            guard !state.folders.contains(where: { $0.index.folder == folder.index.folder }) else { return false }
            state.folders.append(folder)
            state.pendingDeclarations.append(folder.index)
            state.pendingRoutes.append(folder.index)
            return true
        }
        guard added else { return false }
        routes.configuration = routerConfiguration
        answeredRoutes.configuration = routerConfiguration
        return true
    }

    /// Notes the services of the pending folders that lookups spell another way (see
    /// `ServiceManager.deferredIdentity(ofDeclared:)`); every other declaration is found in its index as it is.
    private static func makePendingDeclarations(_ state: inout State) {
        guard !state.pendingDeclarations.isEmpty else { return }
        for index in state.pendingDeclarations {
            for identity in index.declaredIdentities(of: .service) {
                let key = ServiceManager.deferredIdentity(ofDeclared: identity)
                if key != identity, state.services[key] == nil { state.services[key] = identity }
            }
        }
        state.pendingDeclarations = []
    }

    /// Makes the placeholders of the pending routes; the caller holds `placeholders`.
    private func makePendingPlaceholders() {
        let (pending, skipped) = state.withLock { state in
            defer {
                state.pendingRoutes = []
                state.loadedWhilePending = []
            }
            return (state.pendingRoutes, state.loadedWhilePending)
        }
        for record in pending.lazy.flatMap({ $0.plugins.lazy.flatMap(\.records) }) where record.kind == .route {
            let loaded = skipped.contains(record.origin.objectPath)
            guard case .route(let route) = record.payload,
                  state.withLock({ $0.routeIdentities.insert(record.identity).inserted }),
                  // A pattern the router refuses is reported when its plugin loads and the record is refused.
                  let id = try? (loaded ? answeredRoutes : routes).addRoute(route.pattern, scheme: route.scheme, priority: route.priority)
            else { continue }
            state.withLock { state in
                if loaded { state.answered[id] = record.identity } else { state.routes[id] = record.identity }
            }
        }
    }

    func service(_ lookup: RecordIdentity) -> RecordIdentity? {
        state.withLock { state in
            Self.makePendingDeclarations(&state)
            if let declared = state.services[lookup] { return declared }
            return state.folders.contains { $0.index.declares(lookup) } ? lookup : nil
        }
    }

    func target(named name: String) -> RecordIdentity? {
        let identity = RecordIdentity(kind: .target, name: name)
        return state.withLock { $0.folders.contains { $0.index.declares(identity) } } ? identity : nil
    }

    /// The declared route a URL reaches: of a plugin not loaded, else of a loaded one (whose load the caller
    /// then finds done, and looks again once in the hive's tables). A URL that a loaded plugin's handlers all
    /// decline is therefore offered to them a second time; the router alone knows whether its caller's copy of
    /// the tables was older than the load.
    func route(matching url: String) -> RecordIdentity? {
        placeholders.withLock { _ in
            makePendingPlaceholders()
            if let match = routes.match(url) { return state.withLock { $0.routes[match.route.id] } }
            guard let match = answeredRoutes.match(url) else { return nil }
            return state.withLock { $0.answered[match.route.id] }
        }
    }

    /// Moves the route placeholders of a plugin that `plugins` loaded to `answeredRoutes`: its own routes answer
    /// now, and an unloaded plugin's route that a URL also matches must still be found. `firstUse` is what was
    /// asked for when a first use loaded it.
    func loaded(_ plugin: IndexedPlugin, by plugins: DeferredPlugins, firstUse: RecordIdentity? = nil) {
        placeholders.withLock { _ in
            let moved = state.withLock { state -> [(RouteID, RecordIdentity)] in
                if let firstUse { state.firstUses.append(PluginFirstUse(path: plugin.path, requested: firstUse)) }
                // Unloaded on another thread since it loaded: `unloaded` found the placeholders still there and
                // kept them, and they must stay so that the next use loads it again. Checked under
                // `placeholders`, which `unloaded` takes after marking the plugin unloaded.
                guard plugins.isLoaded(path: plugin.path) else { return [] }
                if !state.pendingRoutes.isEmpty { state.loadedWhilePending.insert(plugin.path) }
                guard !state.routes.isEmpty else { return [] }
                let identities = Set(plugin.records.lazy.filter { $0.kind == .route }.map(\.identity))
                let moved = state.routes.filter { identities.contains($0.value) }
                for (id, _) in moved { state.routes[id] = nil }
                return Array(moved)
            }
            for (id, identity) in moved {
                _ = routes.removeRoute(id)
                guard let record = plugin.records.first(where: { $0.identity == identity }), case .route(let route) = record.payload,
                      let answer = try? answeredRoutes.addRoute(route.pattern, scheme: route.scheme, priority: route.priority)
                else { continue }
                state.withLock { $0.answered[answer] = identity }
            }
        }
    }

    /// Brings back the route placeholders of a plugin that was unloaded, for the routes it is the first to
    /// declare, so that a URL reaching one of them loads it again.
    func unloaded(_ plugin: IndexedPlugin) {
        placeholders.withLock { _ in
            makePendingPlaceholders()
            let identities = Set(plugin.records.lazy.filter { $0.kind == .route }.map(\.identity))
            let answered = state.withLock { state in
                let ids = state.answered.filter { identities.contains($0.value) }.map(\.key)
                for id in ids { state.answered[id] = nil }
                return ids
            }
            for id in answered { _ = answeredRoutes.removeRoute(id) }
            restorePlaceholders(of: plugin)
        }
    }

    private func restorePlaceholders(of plugin: IndexedPlugin) {
        for record in plugin.records {
            guard case .route(let route) = record.payload, owner(of: record.identity)?.plugin.path == plugin.path,
                  !state.withLock({ $0.routes.values.contains(record.identity) }),
                  let id = try? routes.addRoute(route.pattern, scheme: route.scheme, priority: route.priority)
            else { continue }
            state.withLock { $0.routes[id] = record.identity }
        }
    }

    /// The folder holding the plugin file that `file` describes, whatever path it was loaded by, and that plugin.
    func plugin(matching file: PluginFileStamp) -> (plugins: DeferredPlugins, plugin: IndexedPlugin)? {
        for folder in folders {
            if let plugin = folder.index.plugins.first(where: { $0.stamp.inode == file.inode && $0.stamp.device == file.device }) {
                return (folder.plugins, plugin)
            }
        }
        return nil
    }

    /// The folder whose plugin declares `identity`, and that plugin.
    func owner(of identity: RecordIdentity) -> (plugins: DeferredPlugins, plugin: IndexedPlugin)? {
        for folder in folders {
            if let plugin = folder.plugins.plugin(declaring: identity) { return (folder.plugins, plugin) }
        }
        return nil
    }
}
