@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHiveRouter

/// The routes that the plugins of folders declare, as placeholders: which declared route a URL reaches, found
/// the way the hive's router finds it, without loading anything. A value of the plugin lifecycle's state, changed
/// only by its transitions.
///
/// Two routers: `unloaded` holds the routes of plugins not loaded, and is matched first; `loaded` holds those
/// of loaded plugins, asked when `unloaded` has none for a URL: a lookup that read the hive's route tables
/// before the plugin's routes were in them missed them, and must look again. Each keeps the declared identity
/// of each of its routes.
struct RoutePlaceholders {
    // Reference types, shared by copies of the value: only the lifecycle's one copy is ever changed.
    private let unloaded = Router()
    private let loaded = Router()
    private var unloadedIdentities: [RouteID: RecordIdentity] = [:]
    private var loadedIdentities: [RouteID: RecordIdentity] = [:]
    /// Identities given a placeholder: a route declared by two plugins has one, its first plugin's.
    private var identities: Set<RecordIdentity> = []
    /// Indexes of added folders whose routes have no placeholders yet: parsing 100 patterns cost a third of
    /// adding a folder, so they are made at the first route lookup instead.
    private var pending: [PluginIndex] = []

    mutating func add(_ index: PluginIndex, configuration: RouterConfiguration) {
        unloaded.configuration = configuration
        loaded.configuration = configuration
        pending.append(index)
    }

    /// The declared identity of the route a URL reaches, unloaded plugins first. `isLoaded` tells, by a
    /// plugin's path, on which side a pending placeholder goes.
    mutating func route(matching url: String, isLoaded: (String) -> Bool) -> RecordIdentity? {
        makePending(isLoaded: isLoaded)
        if let match = unloaded.match(url) { return unloadedIdentities[match.route.id] }
        guard let match = loaded.match(url) else { return nil }
        return loadedIdentities[match.route.id]
    }

    private mutating func makePending(isLoaded: (String) -> Bool) {
        guard !pending.isEmpty else { return }
        let indexes = pending
        pending = []
        for plugin in indexes.lazy.flatMap(\.plugins) {
            let side = isLoaded(plugin.path)
            for record in plugin.records where record.kind == .route {
                guard identities.insert(record.identity).inserted else { continue }
                add(record, loaded: side)
            }
        }
    }

    /// Adds the placeholder of a route record; a pattern the router refuses is reported when its plugin loads
    /// and the record is refused.
    private mutating func add(_ record: AnnotationRecord, loaded side: Bool) {
        guard case .route(let route) = record.payload,
              let id = try? (side ? loaded : unloaded).addRoute(route.pattern, scheme: route.scheme, priority: route.priority)
        else { return }
        if side { loadedIdentities[id] = record.identity } else { unloadedIdentities[id] = record.identity }
    }

    /// Moves the placeholders of `plugin`, just loaded, to `loaded`: its own routes answer now, and an unloaded
    /// plugin's route that a URL also matches must still be found.
    mutating func answer(_ plugin: IndexedPlugin) {
        let routes = Set(plugin.records.lazy.filter { $0.kind == .route }.map(\.identity))
        guard !routes.isEmpty else { return }
        for (id, identity) in unloadedIdentities where routes.contains(identity) {
            unloadedIdentities[id] = nil
            _ = unloaded.removeRoute(id)
            guard let record = plugin.records.first(where: { $0.identity == identity }) else { continue }
            add(record, loaded: true)
        }
    }

    /// Moves the placeholders of `plugin`, just unloaded, back to `unloaded`, for the routes it is the first to
    /// declare (`owner` gives the path of the plugin declaring an identity first), so that a URL reaching one
    /// of them loads it again.
    mutating func deferAgain(_ plugin: IndexedPlugin, owner: (RecordIdentity) -> String?) {
        let routes = Set(plugin.records.lazy.filter { $0.kind == .route }.map(\.identity))
        guard !routes.isEmpty else { return }
        for (id, identity) in loadedIdentities where routes.contains(identity) {
            loadedIdentities[id] = nil
            _ = loaded.removeRoute(id)
        }
        let present = Set(unloadedIdentities.values)
        for record in plugin.records where record.kind == .route && !present.contains(record.identity) {
            guard owner(record.identity) == plugin.path, identities.contains(record.identity) else { continue }
            add(record, loaded: false)
        }
    }

    /// Placeholders on the wrong side for the plugin declaring them, by `isLoaded` (by the plugin's path; nil
    /// while a load or unload is under way, when either side is right).
    func problems(isLoaded: (String) -> Bool?, owner: (RecordIdentity) -> String?) -> [String] {
        var found: [String] = []
        for identity in unloadedIdentities.values {
            if let path = owner(identity), isLoaded(path) == true { found.append("\(identity) of loaded \(path) would load it again") }
        }
        for identity in loadedIdentities.values {
            if let path = owner(identity), isLoaded(path) == false { found.append("\(identity) of unloaded \(path) would not load it") }
        }
        return found
    }
}
