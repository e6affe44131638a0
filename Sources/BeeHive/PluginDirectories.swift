import BeeHiveLocks
import BeeHiveRegistry
import BeeHiveServices

/// The plugin folders of a hive: each folder's index, and what its plugins declare in the forms the managers
/// ask by (a service key, a target name). It knows what is declared, never what is loaded: that is the plugin
/// lifecycle's (`PluginLifecycle`), which also keeps the route placeholders.
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
        /// Indexes of added folders whose services are not looked through for `services` yet: done at the
        /// first service lookup, off the launch path.
        var pendingDeclarations: [PluginIndex] = []
    }

    private let state = Locked(State())

    var folders: [Folder] { state.withLock { $0.folders } }

    /// Adds a folder's index; false when that folder was added already. A declaration keeps the first plugin
    /// declaring it.
    func add(_ folder: Folder) -> Bool {
        state.withLock { state in
            guard !state.folders.contains(where: { $0.index.folder == folder.index.folder }) else { return false }
            state.folders.append(folder)
            state.pendingDeclarations.append(folder.index)
            return true
        }
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

    /// The plugin at `path`, as its folder's index names it.
    func plugin(atPath path: String) -> IndexedPlugin? {
        for folder in folders {
            if let plugin = folder.index.plugins.first(where: { $0.path == path }) { return plugin }
        }
        return nil
    }

    /// The folder whose plugin declares `identity` (the first folder that does), and that plugin.
    func owner(of identity: RecordIdentity) -> (folder: Folder, plugin: IndexedPlugin)? {
        for folder in folders {
            if let plugin = folder.plugins.plugin(declaring: identity) { return (folder, plugin) }
        }
        return nil
    }
}
