import BeeHiveLocks
import BeeHiveObservation
@_spi(BeeHiveInternals) import BeeHiveRegistry

extension ServiceManager {
    /// Registers an `async` factory for `service`, resolved with `resolveAsync(_:name:arguments:)`. A
    /// singleton (or named, or weak) instance is made once even when many tasks ask for it at the same time:
    /// the first one runs the factory, the others await its result. A factory that throws makes nothing, and
    /// the next lookup tries again.
    ///
    ///     services.register(Database.self, scope: .singleton) { resolver, _ in
    ///         try await PostgresDatabase.connect(to: try resolver.resolve(DatabaseConfiguration.self))
    ///     }
    public func register<Service>(
        _ service: Service.Type, scope: ServiceScope = .transient, name: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        asyncFactory factory: @escaping @Sendable (ServiceResolver, ServiceArguments) async throws -> Service
    ) {
        asyncRegistrations.add(
            AsyncRegistration(
                key: ServiceKey(service: ServiceTypeName.of(service), name: name), scope: scope,
                factory: { resolver, arguments in try await factory(resolver, arguments) },
                source: .code(fileID: fileID, line: line)))
    }

    /// The `async` factories, by service and name, listed as `registrations` lists the others (`registrations`
    /// leaves them out), with the implementation `async factory`.
    package var asyncFactoryRegistrations: [ServiceRegistration] {
        asyncRegistrations.all.map {
            ServiceRegistration(
                service: $0.key.service, name: $0.key.name, implementation: ServiceRegistration.asyncFactoryImplementation, scope: $0.scope, source: $0.source,
                status: .active)
        }
    }

    /// The service, awaiting its `async` factory if it has one; services registered any other way resolve as
    /// with `resolve(_:name:arguments:)`. Overrides of a `withOverrides` scope apply.
    public func resolveAsync<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments = .none
    ) async throws(ServiceError) -> Service {
        try await resolveAsync(service, name: name, arguments: arguments, context: ResolutionContext.joined())
    }

    func resolveAsync<Service>(
        _ service: Service.Type, name: String?, arguments: ServiceArguments, context: ResolutionContext
    ) async throws(ServiceError) -> Service {
        if let overridden = overriddenInstance(of: ObjectIdentifier(service), name: name) { return overridden.value(as: service) }
        let key = ServiceKey(service: ServiceTypeName.of(service), name: name)
        guard let registration = asyncRegistrations.registration(for: key) else {
            return try resolve(service, name: name, arguments: arguments, context: context)
        }
        HiveObserver.serviceLookedUp()
        if context.path.contains(key) {
            let chain = context.path + [key]
            throw ServiceError(.cycle(chain: chain.map(\.description)), resolutionPath: chain.map(\.description))
        }
        let inner = context.appending(key)
        let box = try await registration.instance(for: key, in: OverrideScope.innermost(for: ObjectIdentifier(self))) {
            () async throws(ServiceError) -> Any in
            try await self.make(registration, key: key, arguments: arguments, context: inner)
        }
        guard let typed = box.value as? Service else {
            throw ServiceError(
                .doesNotConform(service: key.description, implementation: ServiceTypeName.of(type(of: box.value))),
                resolutionPath: inner.pathDescription)
        }
        return typed
    }

    private func make(
        _ registration: AsyncRegistration, key: ServiceKey, arguments: ServiceArguments, context: ResolutionContext
    ) async throws(ServiceError) -> Any {
        var arguments = arguments
        arguments.service = key.description
        let resolver = ServiceResolver(manager: self, context: context)
        do {
            return try await ResolutionContext.$current.withValue(context) {
                try await registration.factory(resolver, arguments)
            }
        } catch let error as ServiceError {
            throw error.resolutionPath.isEmpty ? ServiceError(error.kind, resolutionPath: context.pathDescription) : error
        } catch {
            throw ServiceError(
                .creationFailed(service: key.description, implementation: ServiceRegistration.asyncFactoryImplementation, reason: String(describing: error)),
                resolutionPath: context.pathDescription)
        }
    }
}

extension ServiceResolver {
    /// A dependency of an `async` factory, awaited if it has an `async` factory itself.
    public func resolveAsync<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments = .none
    ) async throws(ServiceError) -> Service {
        try await manager.resolveAsync(service, name: name, arguments: arguments, context: context)
    }
}

/// The services registered with an `async` factory, by key. The last registration of a key wins.
final class AsyncRegistrations: Sendable {
    private let registrations = Locked<[ServiceKey: AsyncRegistration]>([:])

    func add(_ registration: AsyncRegistration) {
        registrations.withLock { $0[registration.key] = registration }
    }

    /// Every registration, by service and name.
    var all: [AsyncRegistration] {
        registrations.withLock { $0.values.sorted { $0.key < $1.key } }
    }

    /// The registration of `key`; a named lookup falls back to the unnamed registration of named scope.
    func registration(for key: ServiceKey) -> AsyncRegistration? {
        registrations.withLock { registrations in
            if let found = registrations[key] { return found }
            guard key.name != nil, let unnamed = registrations[ServiceKey(service: key.service, name: nil)],
                unnamed.scope == .named
            else { return nil }
            return unnamed
        }
    }
}

/// One `async` factory and the instances of its cached scope.
final class AsyncRegistration: Sendable {
    typealias Factory = @Sendable (ServiceResolver, ServiceArguments) async throws -> Any

    /// A cached instance, or the task making it that later lookups await.
    private enum Slot: Sendable {
        case making(Task<InstanceBox, any Error>)
        case made(InstanceBox)
        case weak(WeakInstance)
    }

    let key: ServiceKey
    let scope: ServiceScope
    let factory: Factory
    let source: ServiceSource
    private let slots = Locked<[String?: Slot]>([:])

    init(key: ServiceKey, scope: ServiceScope, factory: @escaping Factory, source: ServiceSource) {
        self.key = key
        self.scope = scope
        self.factory = factory
        self.source = source
    }

    /// The instance a lookup of `lookupKey` gets: made now for transient scope, else the cached one, made
    /// once. Inside an override scope, an instance not made yet is made for that scope and kept there.
    func instance(
        for lookupKey: ServiceKey, in overrideScope: OverrideScope?,
        make: @escaping @Sendable () async throws(ServiceError) -> Any
    ) async throws(ServiceError) -> InstanceBox {
        let slotName: String?
        switch scope {
        case .transient: return InstanceBox(try await make())
        case .singleton, .weak: slotName = nil
        case .named: slotName = lookupKey.name ?? key.name ?? key.service
        }
        enum Found {
            case ready(InstanceBox)
            case making(Task<InstanceBox, any Error>)
            case inOverrideScope(OverrideScope)
        }
        let found = slots.withLock { slots -> Found in
            switch slots[slotName] {
            case .made(let box): return .ready(box)
            case .weak(let weak): if let object = weak.object { return .ready(InstanceBox(object)) }
            case .making(let task): return .making(task)
            case nil: break
            }
            if let overrideScope { return .inOverrideScope(overrideScope) }
            let task = Task { () async throws -> InstanceBox in InstanceBox(try await make()) }
            slots[slotName] = .making(task)
            return .making(task)
        }
        switch found {
        case .ready(let box): return box
        case .making(let task): return try await settle(task, slotName)
        case .inOverrideScope(let scope):
            let slot = OverrideScope.ScopedSlot(registration: ObjectIdentifier(self), name: slotName)
            if let made = scope.madeInstance(slot) { return made }
            return scope.keep(InstanceBox(try await make()), for: slot)
        }
    }

    /// Awaits the task making an instance and puts what it made, or nothing if it failed, in the slot.
    private func settle(_ making: Task<InstanceBox, any Error>, _ slotName: String?) async throws(ServiceError) -> InstanceBox {
        let result = await making.result
        slots.withLock { slots in
            guard case .making(let current) = slots[slotName], current == making else { return }
            switch result {
            case .success(let box):
                if scope == .weak, Swift.type(of: box.value) is AnyClass {
                    slots[slotName] = .weak(WeakInstance(box.value as AnyObject))
                } else {
                    slots[slotName] = .made(box)
                }
            case .failure: slots[slotName] = nil
            }
        }
        switch result {
        case .success(let box): return box
        case .failure(let error as ServiceError): throw error
        case .failure(let error):
            throw ServiceError(.creationFailed(service: key.description, implementation: ServiceRegistration.asyncFactoryImplementation, reason: "\(error)"))
        }
    }
}
