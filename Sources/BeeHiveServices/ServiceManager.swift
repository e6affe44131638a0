import BeeHiveLocks
import BeeHiveObservation
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Logging
import Synchronization

/// Maps service types to implementations and creates them: BeeHive's `BHServiceManager`, done right.
///
/// Services come from code (`register`), from annotation records (`apply(_:)`) and from configuration files
/// (`registerServices(fromFileAt:)`). Look them up with `createService(_:)` (nil and a logged error when
/// something is wrong) or `resolve(_:)` (a `ServiceError` saying what is wrong). Thread-safe; a cached
/// lookup takes no lock, allocates nothing and casts nothing.
public final class ServiceManager: Sendable {
    public let duplicatePolicy: DuplicatePolicy
    private let logger: Logger
    private let state: Locked<State>
    private let gate = ConstructionGate()
    /// Tells managers apart in the threads' cache copies; never reused, unlike an address.
    private let identity = ServiceManager.identities.add(1, ordering: .relaxed).newValue
    /// `State.generation`, for the threads' copies of the cache (read without the lock); stored under it.
    private let published = Atomic<UInt64>(0)
    private static let identities = Atomic<UInt64>(0)
    /// Which record became which registration: the one ledger, used by `apply(_:)` and by the hub that feeds
    /// this manager, so that feeding it both ways registers nothing twice.
    package let ledger = RecordLedger<ServiceManager>()
    /// Services registered with an `async` factory (ServiceManager+Async.swift).
    let asyncRegistrations = AsyncRegistrations()
    /// Asked when a lookup finds no registration (ServiceManager+Deferred.swift); the hub sets it.
    package let deferred = Locked<DeferredLookup<RecordIdentity>?>(nil)

    private struct State {
        /// Every registration of each service, in registration order.
        var registrations: [ServiceKey: [Registration]] = [:]
        /// Singleton and named instances already cast to the requested type: the cached lookup path.
        var cache = TypeKeyedTable<TypedInstance>()
        var typeNames = TypeKeyedTable<String>()
        /// Service types seen in code, by name, to check annotated implementations against in `validate()`.
        var knownTypes: [String: Any.Type] = [:]
        /// Types named since `knownTypes` was last asked: only validation reads it, so registering does not pay
        /// for hashing the name a second time.
        var unindexedTypes: [(name: String, type: Any.Type)] = []
        /// Bumped on every change, so a lookup that raced with a change does not cache a stale instance.
        var generation: UInt64 = 0

        /// The known type of that name, after indexing the types named since the last call in the order they
        /// were named, so the latest of one name wins as it did when each was indexed on registration.
        mutating func knownType(named name: String) -> Any.Type? {
            for (name, type) in unindexedTypes { knownTypes[name] = type }
            unindexedTypes.removeAll()
            return knownTypes[name]
        }
    }

    /// Records a change of the registrations or cached instances; called with the lock held, so that the
    /// published generation never goes back.
    private func changed(_ state: inout State) {
        state.cache.removeAll()
        state.generation &+= 1
        published.store(state.generation, ordering: .releasing)
    }

    /// An instance a lookup got, before it is cast to the requested type.
    private struct Lookup {
        let instance: InstanceBox
        let isCacheable: Bool
        let generation: UInt64
    }

    /// - Parameters:
    ///   - duplicatePolicy: what lookups do when a service is registered more than once; `.strict` by default.
    ///   - logger: where duplicates and failed `createService` lookups are reported; silent by default.
    public init(
        duplicatePolicy: DuplicatePolicy = .strict,
        logger: Logger = Logger(label: "BeeHive.services", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.duplicatePolicy = duplicatePolicy
        self.logger = logger
        state = Locked(State())
    }

    // MARK: Registration

    /// Registers a factory for `service`. The factory gets a resolver for the service's dependencies and the
    /// lookup's arguments.
    ///
    ///     manager.register(HomeService.self, scope: .singleton) { resolver, _ in
    ///         HomeServiceImpl(account: try resolver.resolve(AccountService.self))
    ///     }
    public func register<Service>(
        _ service: Service.Type, scope: ServiceScope = .transient, name: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable (ServiceResolver, ServiceArguments) throws -> Service
    ) {
        add(
            Registration(
                key: ServiceKey(service: typeName(of: service), name: name), scope: scope,
                maker: .factory { resolver, arguments in try factory(resolver, arguments) },
                source: .code(fileID: fileID, line: line)))
    }

    /// Registers `implementation`, created with its `ServiceImplementation` initializer, for `service`.
    /// Whether it conforms to `service` is checked at lookup.
    public func register<Service, Implementation: ServiceImplementation>(
        _ service: Service.Type, implementation: Implementation.Type, scope: ServiceScope = .transient,
        name: String? = nil, fileID: String = #fileID, line: Int = #line
    ) {
        add(
            Registration(
                key: ServiceKey(service: typeName(of: service), name: name), scope: scope,
                maker: .type(implementation), source: .code(fileID: fileID, line: line)))
    }

    /// Removes every registration of `service` under `name`, whatever its source, with its cached instances.
    public func unregister<Service>(_ service: Service.Type, name: String? = nil) {
        let key = ServiceKey(service: typeName(of: service), name: name)
        state.withLock { state in
            if state.registrations.removeValue(forKey: key) != nil { changed(&state) }
        }
    }

    /// Drops the cached instances of `service` (BeeHive's `removeServiceWithServiceName:`), so the next lookup
    /// creates new ones: with a name, the instance cached under that name; without, every instance.
    public func discardInstances<Service>(of service: Service.Type, name: String? = nil) {
        let serviceName = typeName(of: service)
        let registrations = state.withLock { state in
            changed(&state)
            return state.registrations.filter { $0.key.service == serviceName }.values.flatMap { $0 }
        }
        for registration in registrations {
            if let name, registration.key.name != name {
                registration.discardInstance(named: name)
            } else {
                registration.discardInstances()
            }
        }
    }

    /// Registers the services listed in a configuration file: BeeHive's service plist (`.plist`) or the same
    /// layout in JSON (`.json`). Nothing is registered when any entry is bad.
    public func registerServices(fromFileAt path: String) throws(ServiceError) {
        let url = URL(fileURLWithPath: path)
        guard let format = ServiceConfigurationFormat(pathExtension: url.pathExtension) else {
            throw ServiceError(
                .invalidConfiguration(
                    source: path, reason: "unknown file extension '\(url.pathExtension)': use .plist or .json"))
        }
        let data: Data
        do {
            data = try RegularFile.contents(atPath: path)
        } catch {
            throw ServiceError(.invalidConfiguration(source: path, reason: "cannot read the file: \(error.reason)"))
        }
        try registerServices(from: data, format: format, source: path)
    }

    /// Registers the services listed in configuration data; `source` names it in errors and introspection.
    public func registerServices(
        from data: Data, format: ServiceConfigurationFormat, source: String
    ) throws(ServiceError) {
        let entries = try ServiceConfiguration.entries(in: data, format: format, source: source)
        for (index, entry) in entries.enumerated() {
            add(
                Registration(
                    key: ServiceKey(service: entry.service, name: entry.name), scope: entry.scope,
                    maker: .typeName(entry.implementation), source: .configuration(path: source, entry: index)))
        }
    }

    // MARK: Lookup

    /// The service, or the error that says what is missing or broken.
    ///
    /// Inlinable, so that the caller reads a cached instance as its own concrete type: unspecialized, the
    /// copy out of the cache goes through the type's value witnesses.
    @inlinable
    public func resolve<Service>(_ service: Service.Type, name: String? = nil) throws(ServiceError) -> Service {
        if let cached = cachedStorage(of: ObjectIdentifier(service), name: name) {
            return cached.assumingMemoryBound(to: Service.self).pointee
        }
        return try resolveUncached(service, name: name, arguments: .none)
    }

    /// The service created with `arguments` (for cached scopes, the arguments of the lookup that creates it).
    @inlinable
    public func resolve<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments
    ) throws(ServiceError) -> Service {
        if let cached = cachedStorage(of: ObjectIdentifier(service), name: name) {
            return cached.assumingMemoryBound(to: Service.self).pointee
        }
        return try resolveUncached(service, name: name, arguments: arguments)
    }

    /// The service, or nil after logging why not (BeeHive's `createService:` without `enableException`).
    @inlinable
    public func createService<Service>(_ service: Service.Type, name: String? = nil) -> Service? {
        if let cached = cachedStorage(of: ObjectIdentifier(service), name: name) {
            return cached.assumingMemoryBound(to: Service.self).pointee
        }
        return createServiceUncached(service, name: name, arguments: .none)
    }

    public func createService<Service>(
        _ service: Service.Type, name: String? = nil, arguments: ServiceArguments
    ) -> Service? {
        if let cached = cachedStorage(of: ObjectIdentifier(service), name: name) {
            return cached.assumingMemoryBound(to: Service.self).pointee
        }
        return createServiceUncached(service, name: name, arguments: arguments)
    }

    /// `createService` after its cache miss: past the cache, so that the lookup is counted once.
    @usableFromInline
    func createServiceUncached<Service>(
        _ service: Service.Type, name: String?, arguments: ServiceArguments
    ) -> Service? {
        do {
            return try resolveUncached(service, name: name, arguments: arguments)
        } catch {
            log(error)
            return nil
        }
    }

    /// Whether `service` has a usable registration: registered, not in conflict, and its implementation type
    /// found and constructible. Creates nothing, so it cannot tell whether the factory or initializer succeeds.
    public func canCreateService<Service>(_ service: Service.Type, name: String? = nil) -> Bool {
        if cachedStorage(of: ObjectIdentifier(service), name: name) != nil { return true }
        let key = ServiceKey(service: typeName(of: service), name: name)
        guard let found = try? activeRegistration(for: key, path: [], consultsDeferred: false) else {
            return deferredIdentity(of: key) != nil
        }
        return (try? found.registration.factory()) != nil
    }

    // MARK: Validation and introspection

    /// Creates every registered service once and returns everything missing or broken: unresolvable or
    /// unconstructible implementation types, implementations that do not conform, duplicates, cycles, missing
    /// dependencies, failing factories. Cached scopes keep the instances created.
    ///
    /// A service whose own factory needs arguments cannot be created without them and is not reported for
    /// that; a dependency created without the arguments it needs is.
    public func validate() -> [ServiceError] {
        let keys = state.withLock { $0.registrations.keys.sorted() }
        var errors: [ServiceError] = []
        for key in keys {
            let context = ResolutionContext.joined()
            do throws(ServiceError) {
                let lookup = try instance(for: key, arguments: .none, context: context)
                let value = lookup.instance.value
                if let type = knownType(named: key.service), !ServiceTypeName.isInstance(value, of: type) {
                    errors.append(
                        ServiceError(
                            .doesNotConform(service: key.description, implementation: ServiceTypeName.of(Swift.type(of: value))),
                            resolutionPath: context.appending(key).pathDescription))
                }
            } catch {
                if case .missingArgument = error.kind, error.resolutionPath.count == context.path.count + 1 { continue }
                errors.append(error)
            }
            // Code registrations name a real type; names read from files and records may name nothing.
            let textual = state.withLock { state in
                state.registrations[key]?.first { registration in
                    if case .code = registration.source { return false }
                    return true
                }?.source
            }
            if let textual, knownType(named: key.service) == nil {
                errors.append(ServiceError(.unknownService(service: key.service, source: textual)))
            }
        }
        if !errors.isEmpty {
            logger.error("service validation found \(errors.count) problem(s)", metadata: ["first": "\(errors[0])"])
        }
        return errors
    }

    /// Every registration, ordered by service and name, then registration order.
    public var registrations: [ServiceRegistration] {
        let registrations = state.withLock { $0.registrations.sorted { $0.key < $1.key } }
        return registrations.flatMap { key, list in
            let active = try? activeRegistration(in: list, path: [])
            return list.map { registration in
                ServiceRegistration(
                    service: key.service, name: key.name, implementation: registration.implementation,
                    scope: registration.scope, source: registration.source,
                    status: active == nil ? .conflicting : (active === registration ? .active : .shadowed))
            }
        }
    }

    // MARK: Internals

    /// A lookup through a factory's resolver.
    func resolve<Service>(
        _ service: Service.Type, name: String?, arguments: ServiceArguments, context: ResolutionContext
    ) throws(ServiceError) -> Service {
        if let cached = cachedStorage(of: ObjectIdentifier(service), name: name) {
            return cached.assumingMemoryBound(to: Service.self).pointee
        }
        // A resolver kept past its factory (by a task the factory started) starts a chain of its own.
        return try resolveUncached(service, name: name, arguments: arguments, context: context.isLive ? context : .fresh())
    }

    /// A lookup on the manager the cache cannot answer: it joins the enclosing factory's chain or starts one.
    @usableFromInline
    @inline(never)
    func resolveUncached<Service>(
        _ service: Service.Type, name: String?, arguments: ServiceArguments
    ) throws(ServiceError) -> Service {
        try resolveUncached(service, name: name, arguments: arguments, context: nil)
    }

    /// Every lookup the cache cannot answer ends here. `context` is the resolver's chain, or nil for a call on
    /// the manager.
    private func resolveUncached<Service>(
        _ service: Service.Type, name: String?, arguments: ServiceArguments, context: ResolutionContext?
    ) throws(ServiceError) -> Service {
        let context = context ?? .joined()
        let key = ServiceKey(service: typeName(of: service), name: name)
        let lookup = try instance(for: key, arguments: arguments, context: context)
        guard let typed = lookup.instance.value as? Service else {
            throw ServiceError(
                .doesNotConform(
                    service: key.description, implementation: ServiceTypeName.of(type(of: lookup.instance.value))),
                resolutionPath: context.appending(key).pathDescription)
        }
        if lookup.isCacheable {
            let box = TypedInstanceBox(typed)
            state.withLock { state in
                if state.generation == lookup.generation { state.cache.insert(box, of: ObjectIdentifier(service), name: name) }
            }
        }
        return typed
    }

    func log(_ error: ServiceError) {
        logger.error("\(error)")
    }

    /// The cached path: where the instance of `type` under `name` is kept, already of that type, or nil when
    /// the lookup must go the long way. It counts the lookup for the observer, and takes no lock, allocates
    /// nothing and retains nothing: a pointer into the thread's copy of the cache, valid until this thread
    /// looks up again, so the caller reads it at once. Not generic, so the caller's type costs nothing here.
    @usableFromInline
    func cachedStorage(of type: ObjectIdentifier, name: String?) -> UnsafeMutableRawPointer? {
        HiveObserver.serviceLookedUp()
        if let overridden = overriddenInstance(of: type, name: name) { return overridden.storage }
        return ThreadInstanceCache.withCurrent { local in
            if local.manager == identity && local.generation == published.load(ordering: .acquiring),
               let storage = local.storage(of: type, name: name) {
                return storage
            }
            return refill(local, type: type, name: name)
        }
    }

    /// Copies one instance from the shared cache into the thread's copy, starting the copy afresh when it
    /// belonged to another manager or generation.
    @inline(never)
    private func refill(_ local: ThreadInstanceCache, type: ObjectIdentifier, name: String?) -> UnsafeMutableRawPointer? {
        guard let (instance, generation) = state.withLock({ state in
            state.cache.value(of: type, name: name).map { ($0, state.generation) }
        }) else { return nil }
        local.insert(instance, of: type, name: name, manager: identity, generation: generation)
        return instance.storage
    }

    private func instance(
        for key: ServiceKey, arguments: ServiceArguments, context: ResolutionContext
    ) throws(ServiceError) -> Lookup {
        let (registration, generation) = try activeRegistration(for: key, path: context.path)
        if context.path.contains(key) {
            let chain = context.path + [key]
            throw ServiceError(.cycle(chain: chain.map(\.description)), resolutionPath: chain.map(\.description))
        }
        let context = context.appending(key)
        switch registration.scope {
        case .transient:
            let value = try make(registration, key: key, arguments: arguments, context: context)
            return Lookup(instance: InstanceBox(value), isCacheable: false, generation: generation)
        case .singleton, .named:
            // A named-scope instance is cached per service name: the lookup's, else the registration's, else the
            // service type's name (BeeHive's default serviceName).
            let slotName = registration.scope == .named ? (key.name ?? registration.key.name ?? key.service) : nil
            if let existing = registration.instance(named: slotName) {
                return Lookup(instance: existing, isCacheable: true, generation: generation)
            }
            if let scoped = try instanceInOverrideScope(of: registration, named: slotName, make: {
                () throws(ServiceError) in try make(registration, key: key, arguments: arguments, context: context)
            }) {
                return Lookup(instance: scoped, isCacheable: false, generation: generation)
            }
            let instance = try gate.instance(
                for: ConstructionGate.Slot(registration: ObjectIdentifier(registration), name: slotName), service: key,
                context: context, existing: { registration.instance(named: slotName) },
                build: { () throws(ServiceError) -> InstanceBox in
                    let box = InstanceBox(try make(registration, key: key, arguments: arguments, context: context))
                    registration.store(box, named: slotName)
                    return box
                })
            return Lookup(instance: instance, isCacheable: true, generation: generation)
        case .weak:
            if let existing = registration.weakInstance() {
                return Lookup(instance: existing, isCacheable: false, generation: generation)
            }
            let instance = try gate.instance(
                for: ConstructionGate.Slot(registration: ObjectIdentifier(registration), name: nil), service: key,
                context: context, existing: registration.weakInstance,
                build: { () throws(ServiceError) -> InstanceBox in
                    let value = try make(registration, key: key, arguments: arguments, context: context)
                    guard type(of: value) is AnyClass else {
                        throw ServiceError(
                            .weakScopeNeedsClass(service: key.description, implementation: ServiceTypeName.of(type(of: value))),
                            resolutionPath: context.pathDescription)
                    }
                    registration.storeWeak(value as AnyObject)
                    return InstanceBox(value)
                })
            return Lookup(instance: instance, isCacheable: false, generation: generation)
        }
    }

    /// Runs the registration's factory or initializer with `context` as the current resolution chain.
    private func make(
        _ registration: Registration, key: ServiceKey, arguments: ServiceArguments, context: ResolutionContext
    ) throws(ServiceError) -> Any {
        var arguments = arguments
        arguments.service = key.description
        var context = context
        let run = FactoryRun()
        context.run = run
        defer { run.finish() }
        let resolver = ServiceResolver(manager: self, context: context)
        do {
            let factory = try registration.factory()
            return try ResolutionContext.$current.withValue(context) { try factory(resolver, arguments) }
        } catch let error as ServiceError {
            throw error.resolutionPath.isEmpty ? ServiceError(error.kind, resolutionPath: context.pathDescription) : error
        } catch {
            throw ServiceError(
                .creationFailed(
                    service: key.description, implementation: registration.implementation,
                    reason: String(describing: error)),
                resolutionPath: context.pathDescription)
        }
    }

    /// The registration lookups of `key` use. A lookup with a name falls back to the service's unnamed
    /// registration when that one has named scope: it serves every name.
    /// With `consultsDeferred`, a service that is not registered but declared by a plugin not loaded yet loads
    /// that plugin and is looked up once more.
    private func activeRegistration(
        for key: ServiceKey, path: [ServiceKey], consultsDeferred: Bool = true
    ) throws(ServiceError) -> (registration: Registration, generation: UInt64) {
        let found = state.withLock { state in
            (state.registrations[key], key.name == nil ? nil : state.registrations[ServiceKey(service: key.service, name: nil)], state.generation)
        }
        if let list = found.0 {
            return (try activeRegistration(in: list, path: path + [key]), found.2)
        }
        if let list = found.1 {
            let registration = try activeRegistration(in: list, path: path + [key])
            if registration.scope == .named { return (registration, found.2) }
        }
        if consultsDeferred, try loadDeferred(key, path: path) {
            return try activeRegistration(for: key, path: path, consultsDeferred: false)
        }
        throw ServiceError(.notRegistered(service: key.service, name: key.name), resolutionPath: (path + [key]).map(\.description))
    }

    private func activeRegistration(in list: [Registration], path: [ServiceKey]) throws(ServiceError) -> Registration {
        switch duplicatePolicy {
        case .override:
            return list[list.count - 1]
        case .strict:
            let first = list[0]
            guard list.dropFirst().allSatisfy({ $0.provides(sameAs: first) }) else {
                throw ServiceError(
                    .duplicate(service: first.key.description, sources: list.map(\.source)),
                    resolutionPath: path.map(\.description))
            }
            return first
        }
    }

    /// Removes these registrations (by identity), with their cached instances.
    func remove(_ leaving: [Registration]) {
        guard !leaving.isEmpty else { return }
        let gone = Set(leaving.map(ObjectIdentifier.init))
        state.withLock { state in
            for key in Set(leaving.map(\.key)) {
                state.registrations[key]?.removeAll { gone.contains(ObjectIdentifier($0)) }
                if state.registrations[key]?.isEmpty == true { state.registrations[key] = nil }
            }
            changed(&state)
        }
        for registration in leaving { registration.discardInstances() }
    }

    func add(_ registration: Registration) {
        let earlier = state.withLock { state in
            let earlier = state.registrations[registration.key, default: []]
            state.registrations[registration.key, default: []].append(registration)
            changed(&state)
            return earlier
        }
        guard let other = earlier.last(where: { !$0.provides(sameAs: registration) }) else { return }
        let metadata: Logger.Metadata = [
            "service": "\(registration.key)", "new": "\(registration.implementation) from \(registration.source)",
            "earlier": "\(other.implementation) from \(other.source)",
        ]
        switch duplicatePolicy {
        case .override:
            logger.warning("service \(registration.key) registered again; the new registration replaces the earlier one", metadata: metadata)
        case .strict:
            logger.error(
                "service \(registration.key) registered again; its lookups fail with a duplicate error until all but one registration are removed",
                metadata: metadata)
        }
    }

    private func typeName(of type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = state.withLock({ $0.typeNames.value(of: id) }) { return name }
        let name = ServiceTypeName.of(type)
        state.withLock { state in
            state.typeNames.insert(name, of: id)
            state.unindexedTypes.append((name, type))
        }
        return name
    }

    func knownType(named name: String) -> Any.Type? {
        if let known = state.withLock({ $0.knownType(named: name) }) { return known }
        // A protocol a Swift macro named comes with a reference: a name lookup of a protocol scans every
        // conformance record of the process.
        guard let type = TypeReferences.resolve(name, as: Any.Type.self) ?? ServiceTypeName.type(named: name) else { return nil }
        state.withLock { $0.knownTypes[name] = type }
        return type
    }

    static func key(of annotation: ServiceAnnotation) -> ServiceKey {
        ServiceKey(service: ServiceTypeName.normalized(annotation.protocolName), name: annotation.name)
    }
}
