/// A type the service manager can create on its own: the implementations named by annotations and
/// configuration files, and those registered with `ServiceManager.register(_:implementation:scope:name:)`.
///
/// Declare the conformance on the implementation, not on the service protocol. Whether the instance conforms to
/// the service it was registered for is checked when it is looked up (and by `ServiceManager.validate()`).
/// Implementations that need nothing to be created can adopt `SimpleServiceImplementation` instead.
///
/// `SendableMetatype`: the manager creates implementations on whichever thread looks them up, so the
/// conformance cannot be isolated to an actor.
public protocol ServiceImplementation: SendableMetatype {
    /// Creates the implementation. Resolve dependencies through `resolver`, which also detects cycles; read
    /// the lookup's arguments from `arguments`.
    init(resolver: ServiceResolver, arguments: ServiceArguments) throws
}
