/// What a manager asks when a lookup finds nothing registered: whether something not loaded yet declares the
/// key, and to load it. The hub installs one per manager for its plugin folders, so the managers know nothing
/// of plugins.
package struct DeferredLookup<Key: Sendable>: Sendable {
    /// Whether something not loaded declares `key`; loads nothing.
    package let declares: @Sendable (Key) -> Bool
    /// Loads what declares `key` and registers its records; false when nothing declares it. True also when it
    /// was loaded already, so the caller looks again once (and only once).
    package let provide: @Sendable (Key) throws(DeferredPluginError) -> Bool

    package init(
        declares: @escaping @Sendable (Key) -> Bool, provide: @escaping @Sendable (Key) throws(DeferredPluginError) -> Bool
    ) {
        self.declares = declares
        self.provide = provide
    }
}
