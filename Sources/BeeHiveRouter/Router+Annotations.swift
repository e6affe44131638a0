import BeeHiveRegistry
import Logging

extension Router {
    /// Registers the routes declared by `BeeHiveRoute(...)` records that arrived and removes those of records
    /// that went away. Each match instantiates the record's ``RouteHandler`` type.
    ///
    /// - Returns: A diagnostic, naming the record and its object file, for every route that could not be
    ///   registered: a handler type that does not resolve or does not conform to ``RouteHandler``, or a
    ///   malformed pattern. The others are registered regardless.
    @discardableResult
    public func apply(_ update: RegistryUpdate) -> [RegistryDiagnostic] {
        for record in update.removed {
            guard case .route = record.payload else { continue }
            if let id = annotatedRoutes.withLock({ $0.removeValue(forKey: record) }) { removeRoute(id) }
        }
        var diagnostics: [RegistryDiagnostic] = []
        for record in update.added {
            guard case .route(let route) = record.payload else { continue }
            switch TypeResolver.resolve(route.typeName, as: (any RouteHandler.Type).self, origin: record.origin) {
            case .failure(let diagnostic):
                diagnostics.append(
                    RegistryDiagnostic(diagnostic.kind, objectPath: record.origin.objectPath, section: record.origin.section, record: record.text))
            case .success(let handlerType):
                do {
                    let id = try addRoute(route.pattern, scheme: route.scheme, priority: route.priority, handlerType: handlerType)
                    if let replaced = annotatedRoutes.withLock({ $0.updateValue(id, forKey: record) }) { removeRoute(replaced) }
                } catch {
                    diagnostics.append(
                        RegistryDiagnostic(
                            .malformedRecord(reason: error.description), objectPath: record.origin.objectPath,
                            section: record.origin.section, record: record.text))
                }
            }
        }
        for diagnostic in diagnostics { logger.error("route not registered: \(diagnostic)") }
        return diagnostics
    }
}
