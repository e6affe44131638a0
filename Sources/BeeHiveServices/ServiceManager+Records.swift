import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry

@_spi(BeeHiveInternals)
extension ServiceManager: RecordConsumer {
    /// One service registered from an annotation record.
    public struct Token: Sendable, Hashable {
        let registration: Registration

        public static func == (lhs: Token, rhs: Token) -> Bool { lhs.registration === rhs.registration }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(registration)) }
    }

    public typealias Diagnostic = RegistryDiagnostic

    public func consumes(_ record: AnnotationRecord) -> Bool {
        record.kind == .service
    }

    /// Registers each record's service. The implementation type is resolved at the first lookup (or by
    /// `validate()`), so nothing is refused here.
    public func register(_ records: [AnnotationRecord]) -> [RecordOutcome<Token, RegistryDiagnostic>] {
        records.map { record in
            guard case .service(let service) = record.payload else {
                return .refused(
                    RegistryDiagnostic(
                        .misplacedRecord(kind: record.kind, expectedSection: SectionName.services),
                        objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
            }
            let registration = Registration(
                key: Self.key(of: service), scope: service.scope, maker: .typeName(service.typeName),
                source: .annotation(record.origin))
            add(registration)
            return .registered(Token(registration: registration))
        }
    }

    /// Removes the registrations, with their cached instances.
    public func unregister(_ tokens: [Token]) -> [RegistryDiagnostic] {
        remove(tokens.map(\.registration))
        return []
    }

    /// Why a registration made from a record cannot be used: its service protocol is not a type of this
    /// process (`.unknownService`, which no lookup in code can reach), its implementation type is not found or
    /// not `ServiceImplementation`. Empty when it can be used. Creates nothing.
    package func problems(of token: Token) -> [ServiceError] {
        let registration = token.registration
        var found: [ServiceError] = []
        // A protocol that a Swift macro referenced exists: making its metadata only to check that cost more
        // than the rest of the check.
        if !TypeReferences.contains(registration.key.service) && knownType(named: registration.key.service) == nil {
            found.append(ServiceError(.unknownService(service: registration.key.service, source: registration.source)))
        }
        do {
            _ = try registration.factory()
        } catch {
            found.append(error)
        }
        return found
    }

}

extension ServiceManager {
    /// Takes in the service annotations of a registry update: registers the added records' services and
    /// unregisters those of the removed records (objects unloaded). `Hive` does this for you.
    public func apply(_ update: RegistryUpdate) {
        ledger.apply(update, to: self)
    }
}
