import BeeHive

// Prints one line per record found by discovery, then what became of its types, for the integration tests:
//   record <section> <text>
//   created <type name> <summary>
//   protocol <protocol name> <String(reflecting:) of the protocol the fixture expects>
//   diagnostic <text>
let registry = AnnotationRegistry.shared
registry.refresh()

func create(_ name: String, _ origin: RecordOrigin) {
    switch TypeResolver.resolve(name, as: (any Creatable.Type).self, origin: origin) {
    case .success(let type): print("created \(name) \(type.init().summary)")
    case .failure(let diagnostic): print("diagnostic \(diagnostic)")
    }
}

let protocols: [String: Any.Type] = [
    "Shop.HomeService": (any HomeService).self, "Shop.PaymentService": (any PaymentService).self,
]
for record in registry.records {
    print("record \(record.origin.section) \(record.text)")
    switch record.payload {
    case .module(let module): create(module.typeName, record.origin)
    case .service(let service):
        create(service.typeName, record.origin)
        print("protocol \(service.protocolName) \(protocols[service.protocolName].map { String(reflecting: $0) } ?? "unknown")")
    case .route(let route): create(route.typeName, record.origin)
    case .target(let target): create(target.typeName, record.origin)
    }
}
for diagnostic in registry.diagnostics {
    print("diagnostic \(diagnostic)")
}
