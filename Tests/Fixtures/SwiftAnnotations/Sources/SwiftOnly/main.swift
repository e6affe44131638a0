import BeeHive
@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHiveAnnotations

// Swift annotations alone: the note the macros write is the only thing that makes discovery read this binary.
@BeeHiveModule
final class LoneModule: Module {
    init() {}
}

let registry = AnnotationRegistry.shared
registry.refresh()
for object in registry.objects {
    print("object annotated=\(object.isAnnotated) records=\(object.records.count)")
}
for record in registry.records {
    print("record \(record.origin.section) \(record.text) resolves=\(TypeResolver.type(named: record.payload.typeName) != nil)")
}
for diagnostic in registry.diagnostics {
    print("diagnostic \(diagnostic)")
}

extension AnnotationRecord.Payload {
    var typeName: String {
        switch self {
        case .module(let module): module.typeName
        case .service(let service): service.typeName
        case .route(let route): route.typeName
        case .target(let target): target.typeName
        }
    }
}
