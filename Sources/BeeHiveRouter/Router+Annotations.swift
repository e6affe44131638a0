@_spi(BeeHiveInternals) import BeeHiveRegistry
import Logging
import Synchronization

@_spi(BeeHiveInternals)
extension Router: RecordConsumer {
    public typealias Token = RouteID
    public typealias Diagnostic = RegistryDiagnostic

    public func consumes(_ record: AnnotationRecord) -> Bool {
        record.kind == .route
    }

    /// Registers the route each `BeeHiveRoute(...)` record declares. The record's ``RouteHandler`` type is
    /// resolved at the route's first match, not here, and each match instantiates it; a name that does not
    /// resolve or conform makes its matches unhandled and is reported by ``handlerProblem(of:)`` (which
    /// `Hive.validateAnnotations()` calls at start). A malformed pattern is refused with a diagnostic naming
    /// the record and its object file.
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

}

extension Router {
    /// Registers the routes declared by records that arrived and removes those of records that went away.
    /// `Hive` does this for you.
    ///
    /// - Returns: A diagnostic, naming the record and its object file, for every route that could not be
    ///   registered. The others are registered regardless.
    @discardableResult
    public func apply(_ update: RegistryUpdate) -> [RegistryDiagnostic] {
        ledger.apply(update, to: self)
    }

    /// Why the handler a route record names cannot be used (its type does not resolve, or does not conform
    /// to ``RouteHandler``), naming the record and its object file; nil when it can, or when the record is not
    /// a route. Resolves the name without instantiating anything.
    package static func handlerProblem(of record: AnnotationRecord) -> RegistryDiagnostic? {
        guard case .route(let route) = record.payload, case .unusable(let problem) = handlerType(named: route.typeName, by: record) else {
            return nil
        }
        return problem
    }

    /// The resolution switched on in place: mapped to another `Result`, its copies needed that generic type's
    /// metadata, and with it a run-time lookup of `RegistryDiagnostic: Error` (a scan of every conformance
    /// record of the process) at the first match.
    fileprivate static func handlerType(named name: String, by record: AnnotationRecord) -> AnnotatedHandlerType.Resolution {
        switch TypeResolver.resolve(name, as: (any RouteHandler.Type).self) {
        case .success(let type):
            return .handler(type)
        case .failure(let diagnostic):
            return .unusable(
                RegistryDiagnostic(
                    diagnostic.kind, objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
        }
    }

    private static func route(for record: AnnotationRecord, into router: Router) -> RecordOutcome<RouteID, RegistryDiagnostic> {
        guard case .route(let route) = record.payload else {
            return .refused(
                RegistryDiagnostic(
                    .misplacedRecord(kind: record.kind, expectedSection: SectionName.routes),
                    objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
        }
        let handlerType = AnnotatedHandlerType(name: route.typeName, record: record)
        let logger = router.logger
        do {
            return .registered(
                try router.register(
                    [route.pattern], scheme: route.scheme, priority: route.priority,
                    handler: { parameters in
                        switch handlerType.resolved {
                        case .handler(let type): return type.init().handle(parameters)
                        case .unusable(let diagnostic):
                            logger.error("route handler not usable: \(diagnostic)")
                            return false
                        }
                    },
                    handlerName: .written(route.typeName), origin: .record(record))[0])
        } catch {
            return .refused(
                RegistryDiagnostic(
                    .malformedRecord(reason: error.description), objectPath: record.origin.objectPath,
                    section: record.origin.section, record: record.text))
        }
    }
}

/// The handler type a route record names, resolved at the route's first match and kept: registering a route
/// costs no name lookup or conformance scan, and a route never matched costs none at all.
private final class AnnotatedHandlerType: Sendable {
    /// What the name resolved to. Not a `Result`: making the lock's metadata for that generic type looks up
    /// `RegistryDiagnostic: Error` at run time, one scan of every conformance record in the process, at the
    /// first route registered.
    enum Resolution: Sendable {
        case handler(any RouteHandler.Type)
        case unusable(RegistryDiagnostic)
    }

    /// The resolution, published once. A box behind an atomic reference rather than a lock: registering a
    /// route then allocates nothing for it (a `Locked` is an object with a mutex of its own, and its generic
    /// metadata is built at the first route record), and ThreadSanitizer sees the atomic, where it cannot see a
    /// contended `Mutex` on Linux.
    private final class Resolved: Sendable {
        let resolution: Resolution
        init(_ resolution: Resolution) { self.resolution = resolution }
    }

    private let name: String
    private let record: AnnotationRecord
    private let cache = AtomicLazyReference<Resolved>()

    init(name: String, record: AnnotationRecord) {
        self.name = name
        self.record = record
    }

    var resolved: Resolution {
        if let known = cache.load() { return known.resolution }
        // Resolved outside any lock; two first matches racing resolve the same name to the same answer, and the
        // first one stored is the one kept.
        return cache.storeIfNil(Resolved(Router.handlerType(named: name, by: record))).resolution
    }
}
