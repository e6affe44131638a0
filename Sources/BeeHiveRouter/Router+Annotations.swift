import BeeHiveRegistry
import Logging

extension Router: RecordConsumer {
    public typealias Token = RouteID
    public typealias Diagnostic = RegistryDiagnostic

    public func consumes(_ record: AnnotationRecord) -> Bool {
        record.kind == .route
    }

    /// Registers the route each `BeeHiveRoute(...)` record declares; each match instantiates the record's
    /// ``RouteHandler`` type. A handler type that does not resolve or does not conform, or a malformed pattern,
    /// is refused with a diagnostic naming the record and its object file.
    public func register(_ records: [AnnotationRecord]) -> [RecordOutcome<RouteID, RegistryDiagnostic>] {
        records.map { record in
            let outcome = Self.route(for: record, into: self)
            if case .refused(let diagnostic) = outcome { logger.error("route not registered: \(diagnostic)") }
            return outcome
        }
    }

    public func unregister(_ tokens: [RouteID]) -> [RegistryDiagnostic] {
        for id in tokens { removeRoute(id) }
        return []
    }

    /// Registers the routes declared by records that arrived and removes those of records that went away.
    /// `Hive` does this for you.
    ///
    /// - Returns: A diagnostic, naming the record and its object file, for every route that could not be
    ///   registered. The others are registered regardless.
    @discardableResult
    public func apply(_ update: RegistryUpdate) -> [RegistryDiagnostic] {
        ledger.apply(update, to: self)
    }

    private static func route(for record: AnnotationRecord, into router: Router) -> RecordOutcome<RouteID, RegistryDiagnostic> {
        guard case .route(let route) = record.payload else {
            return .refused(
                RegistryDiagnostic(
                    .misplacedRecord(kind: record.kind, expectedSection: SectionName.routes),
                    objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
        }
        switch TypeResolver.resolve(route.typeName, as: (any RouteHandler.Type).self, origin: record.origin) {
        case .failure(let diagnostic):
            return .refused(
                RegistryDiagnostic(
                    diagnostic.kind, objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
        case .success(let handlerType):
            do {
                return .registered(
                    try router.addRoute(
                        route.pattern, scheme: route.scheme, priority: route.priority, handlerType: handlerType,
                        origin: "\(record.origin) \"\(record.text)\""))
            } catch {
                return .refused(
                    RegistryDiagnostic(
                        .malformedRecord(reason: error.description), objectPath: record.origin.objectPath,
                        section: record.origin.section, record: record.text))
            }
        }
    }
}
