@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Services declared by plugins that are not loaded yet: the hub installs a `DeferredLookup` in `deferred`,
/// which a lookup asks only when nothing is registered for its key.
extension ServiceManager {
    /// The identity a deferred lookup uses for a declared service (`declared`, a record's identity): its
    /// protocol name spelt the way lookups spell it, and its service name.
    package static func deferredIdentity(ofDeclared declared: RecordIdentity) -> RecordIdentity {
        let name = ServiceTypeName.normalized(declared.name)
        return name == declared.name ? declared : RecordIdentity(kind: .service, name: name, qualifier: declared.qualifier)
    }

    /// What declares `key` among the deferred plugins: the key itself, else (for a named lookup) the service's
    /// unnamed declaration, which may have named scope and serve every name. Loads nothing.
    func deferredIdentity(of key: ServiceKey) -> RecordIdentity? {
        guard let lookup = deferred.withLock({ $0 }) else { return nil }
        let exact = RecordIdentity(kind: .service, name: key.service, qualifier: key.name ?? "")
        if lookup.declares(exact) { return exact }
        let unnamed = RecordIdentity(kind: .service, name: key.service)
        return key.name != nil && lookup.declares(unnamed) ? unnamed : nil
    }

    /// Loads the plugin declaring `key`; false when none does.
    func loadDeferred(_ key: ServiceKey, path: [ServiceKey]) throws(ServiceError) -> Bool {
        guard let identity = deferredIdentity(of: key), let lookup = deferred.withLock({ $0 }) else { return false }
        do {
            return try lookup.provide(identity)
        } catch {
            throw ServiceError(.pluginUnavailable(error), resolutionPath: (path + [key]).map(\.description))
        }
    }
}
