@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Targets declared by plugins that are not loaded yet: the hub installs a `DeferredLookup` in `deferred`,
/// which a call asks only when no target is registered under its name.
extension Mediator {
    /// Whether a plugin not loaded yet declares the target. Its actions are known only once it is loaded, so
    /// `canPerform` answers true for any action of such a target.
    func declaresDeferredTarget(_ name: String) -> Bool {
        deferred.withLock { $0 }?.declares(name) ?? false
    }

    /// Loads the plugin declaring the target; false when none does.
    func loadDeferredTarget(_ name: String) throws(MediatorError) -> Bool {
        guard let lookup = deferred.withLock({ $0 }) else { return false }
        do {
            return try lookup.provide(name)
        } catch {
            throw .pluginUnavailable(error)
        }
    }
}
