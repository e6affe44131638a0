import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry

/// One way to provide a service: from code, a configuration entry or an annotation. Keeps the instances of
/// its cached scopes, so they go away with it.
final class Registration: Sendable {
    typealias Factory = @Sendable (ServiceResolver, ServiceArguments) throws -> Any

    enum Maker: Sendable {
        case factory(Factory)
        case type(any ServiceImplementation.Type)
        /// Resolved on first use: resolving every annotated name at startup would cost time for services never
        /// used.
        case typeName(String)
    }

    /// What resolving an annotated implementation name came to. Not a `Result`: that generic type's metadata
    /// needs `ServiceError: Error` looked up at run time, one scan of every conformance record in the process,
    /// which only the annotation path paid.
    private enum Resolution {
        case factory(Factory)
        case failure(ServiceError)
    }

    private struct Storage {
        var resolution: Resolution?
        /// Singleton instance under nil, named-scope instances under their service name.
        var instances: [String?: InstanceBox] = [:]
        var weakInstance: WeakInstance?
    }

    let key: ServiceKey
    let scope: ServiceScope
    let maker: Maker
    let source: ServiceSource
    private let storage = Locked(Storage())

    init(key: ServiceKey, scope: ServiceScope, maker: Maker, source: ServiceSource) {
        self.key = key
        self.scope = scope
        self.maker = maker
        self.source = source
    }

    /// The implementation type's name, or `factory`. Printed when asked for (listings, errors, duplicates),
    /// not at registration: printing a type the process has not printed before was a quarter of registering it.
    var implementation: String {
        switch maker {
        case .factory: ServiceRegistration.factoryImplementation
        case .type(let type): ServiceTypeName.of(type)
        case .typeName(let name): name
        }
    }

    /// Two registrations of the same implementation in the same scope provide the same thing, so registering
    /// both is not a conflict. Factories cannot be compared. The same type has the same name, so only
    /// different types are compared by name (a type registered in code and by its name in a file or record).
    func provides(sameAs other: Registration) -> Bool {
        guard scope == other.scope else { return false }
        switch (maker, other.maker) {
        case (.factory, _), (_, .factory): return false
        case (.type(let mine), .type(let theirs)) where mine == theirs: return true
        default: return implementation == other.implementation
        }
    }

    /// What creates an instance: the registered factory, or the implementation type's initializer, the type
    /// being resolved from its name once.
    func factory() throws(ServiceError) -> Factory {
        switch maker {
        case .factory(let factory): return factory
        case .type(let type): return Self.factory(of: type)
        case .typeName(let name):
            let resolution = storage.withLock { storage in
                if let known = storage.resolution { return known }
                let found: Resolution
                switch Self.resolve(name, service: key) {
                case .success(let type): found = .factory(Self.factory(of: type))
                case .failure(let error): found = .failure(error)
                }
                storage.resolution = found
                return found
            }
            switch resolution {
            case .factory(let factory): return factory
            case .failure(let error): throw error
            }
        }
    }

    private static func factory(of type: any ServiceImplementation.Type) -> Factory {
        { resolver, arguments in try type.init(resolver: resolver, arguments: arguments) }
    }

    /// Takes the key, not its description: printing it for every resolution that succeeds cost time at start.
    private static func resolve(_ name: String, service: ServiceKey) -> Result<any ServiceImplementation.Type, ServiceError> {
        TypeResolver.resolve(name, as: (any ServiceImplementation.Type).self).mapError { diagnostic in
            if case .unresolvedType = diagnostic.kind {
                return ServiceError(.implementationNotFound(service: service.description, implementation: name))
            }
            return ServiceError(.notConstructible(service: service.description, implementation: name))
        }
    }

    func instance(named name: String?) -> InstanceBox? {
        storage.withLock { $0.instances[name] }
    }

    func store(_ instance: InstanceBox, named name: String?) {
        storage.withLock { $0.instances[name] = instance }
    }

    /// The weak-scope instance, while someone still holds it.
    func weakInstance() -> InstanceBox? {
        storage.withLock { $0.weakInstance?.object.map(InstanceBox.init) }
    }

    func storeWeak(_ object: AnyObject) {
        storage.withLock { $0.weakInstance = WeakInstance(object) }
    }

    func discardInstance(named name: String) {
        _ = storage.withLock { $0.instances.removeValue(forKey: name) }
    }

    func discardInstances() {
        storage.withLock { storage in
            storage.instances.removeAll()
            storage.weakInstance = nil
        }
    }
}
