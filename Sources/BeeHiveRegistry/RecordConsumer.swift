/// What became of one record handed to a ``RecordConsumer``.
@_spi(BeeHiveInternals)
public enum RecordOutcome<Token: Sendable, Diagnostic: Sendable>: Sendable {
    /// Registered; the token unregisters it.
    case registered(Token)
    /// Cannot be registered, ever: a type that does not resolve, a malformed pattern, a dependency cycle.
    case refused(Diagnostic)
    /// Cannot be registered yet (a module whose dependency has not arrived): offered again with every later
    /// batch, and registered once it can be.
    case pending(Diagnostic)
}

/// A manager that turns annotation records into registrations: the service manager, the router, the mediator
/// and the module manager. It keeps no map from records to what they became: whoever feeds it (the hub, or a
/// ``RecordLedger``) keeps the tokens and hands them back to unregister.
@_spi(BeeHiveInternals)
public protocol RecordConsumer: AnyObject, Sendable {
    /// Unregisters one registration made from a record.
    associatedtype Token: Sendable
    associatedtype Diagnostic: Sendable

    /// Whether the record is for this consumer (a service record for the service manager, and so on).
    func consumes(_ record: AnnotationRecord) -> Bool

    /// Registers records of its kind, returning one outcome per record, in order. Records arriving together
    /// are registered together (modules that depend on each other, for instance).
    func register(_ records: [AnnotationRecord]) -> [RecordOutcome<Token, Diagnostic>]

    /// Unregisters what `register` made, in the consumer's own order of removal (modules in reverse launch
    /// order, for instance), and reports what went wrong meanwhile.
    func unregister(_ tokens: [Token]) -> [Diagnostic]
}
