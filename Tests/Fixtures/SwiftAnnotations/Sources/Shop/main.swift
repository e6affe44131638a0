import BeeHive
@_spi(BeeHiveInternals) import BeeHiveRegistry

// Prints one line per record found by discovery, then what became of its types, for the integration tests:
//   record <section> <text>
//   created <type name> <summary>
//   typed <type name> <whether it resolves as the BeeHive protocol of its record's kind>
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

/// Swift macros' records resolve through their compile-time references, C ones through the conformance index.
func typed<T>(_ name: String, as type: T.Type) {
    print("typed \(name) \((try? TypeResolver.resolve(name, as: type).get()) != nil)")
}

let protocols: [String: Any.Type] = [
    "Shop.HomeService": (any HomeService).self, "Shop.PaymentService": (any PaymentService).self,
]
for record in registry.records {
    print("record \(record.origin.section) \(record.text)")
    switch record.payload {
    case .module(let module):
        create(module.typeName, record.origin)
        typed(module.typeName, as: (any Module.Type).self)
    case .service(let service):
        create(service.typeName, record.origin)
        typed(service.typeName, as: (any ServiceImplementation.Type).self)
        print("protocol \(service.protocolName) \(protocols[service.protocolName].map { String(reflecting: $0) } ?? "unknown")")
    case .route(let route):
        create(route.typeName, record.origin)
        typed(route.typeName, as: (any RouteHandler.Type).self)
    case .target(let target): create(target.typeName, record.origin)
    }
}
for diagnostic in registry.diagnostics {
    print("diagnostic \(diagnostic)")
}
