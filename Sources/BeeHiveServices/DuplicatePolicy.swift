/// What a lookup does when a service is registered more than once with different implementations.
public enum DuplicatePolicy: String, Sendable, Hashable, CaseIterable {
    /// The default. Lookups of the service fail with a duplicate error naming every registration, until all but
    /// one are removed. Two modules claiming the same service is almost always a mistake, and picking one
    /// silently made BeeHive's behaviour depend on registration order.
    case strict
    /// The last registration wins, and a warning naming both registrations is logged. For apps that replace
    /// services on purpose, such as tests swapping in fakes.
    case override
}
