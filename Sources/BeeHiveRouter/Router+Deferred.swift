@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Routes declared by plugins that are not loaded yet: the hub installs a `DeferredLookup` in `deferred`,
/// which routing asks only when no registered route handles a URL. The interceptors have run by then; the
/// plugin's routes are then matched once more.
extension Router {
    func declaresDeferredRoute(for url: String) -> Bool {
        deferred.withLock { $0 }?.declares(url) ?? false
    }

    /// Loads the plugin declaring a route that matches `url`; false when none does.
    func loadDeferredRoute(for url: String) throws(RoutingError) -> Bool {
        guard let lookup = deferred.withLock({ $0 }) else { return false }
        do {
            return try lookup.provide(url)
        } catch {
            throw .pluginUnavailable(error)
        }
    }
}
