/// The `scope` of `@BeeHiveService`: how long an instance of the implementation lives.
public enum BeeHiveServiceScope: Sendable {
    /// A new instance for every lookup.
    case transient
    /// One instance for the process.
    case singleton
    /// One instance per service name; needs `name:`.
    case named
    /// Shared while someone holds it, created again once every holder let it go.
    case weak
}
