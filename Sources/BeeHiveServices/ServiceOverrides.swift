import BeeHiveLocks
import Synchronization

/// Services a test puts in place of the app's, within a scope: see `ServiceManager.withOverrides(_:operation:)`.
///
///     try await services.withOverrides {
///         $0.override(PaymentService.self, with: FakePayments())
///     } operation: {
///         try await checkout.run()   // sees FakePayments; everything outside the closure sees the app's
///     }
public struct ServiceOverrides: Sendable {
    struct Key: Hashable {
        let type: ObjectIdentifier
        let name: String?
    }

    var instances: [Key: TypedInstance] = [:]

    /// Makes lookups of `service` (under `name`) inside the scope return `instance`. The instance is shared by
    /// every lookup in the scope, whatever the service's scope.
    public mutating func override<Service>(_ service: Service.Type, name: String? = nil, with instance: Service) {
        instances[Key(type: ObjectIdentifier(service), name: name)] = TypedInstanceBox(instance)
    }
}

/// The overrides in force for one manager inside a `withOverrides` scope, and the cached instances made there.
///
/// A singleton first created inside a scope may have been made with overridden dependencies, so it is kept in
/// the scope and never seen outside; one that existed before the scope is shared as usual.
final class OverrideScope: Sendable {
    @TaskLocal static var current: OverrideScope?
    /// Whether any scope was ever entered in this process. An app never enters one, so its cached lookups check
    /// this flag (one relaxed load) instead of reading the task-local on every lookup. Relaxed is enough: a task
    /// that runs inside a scope was started, or set the scope, after the flag was raised.
    static let everEntered = Atomic<Bool>(false)

    let manager: ObjectIdentifier
    let overrides: ServiceOverrides
    let parent: OverrideScope?
    private let made = Locked<[ScopedSlot: InstanceBox]>([:])

    struct ScopedSlot: Hashable {
        let registration: ObjectIdentifier
        let name: String?
    }

    init(manager: ObjectIdentifier, overrides: ServiceOverrides, parent: OverrideScope?) {
        self.manager = manager
        self.overrides = overrides
        self.parent = parent
    }

    /// The innermost scope of `manager` in force for this task, if any.
    static func innermost(for manager: ObjectIdentifier) -> OverrideScope? {
        var scope = current
        while let found = scope, found.manager != manager { scope = found.parent }
        return scope
    }

    /// The override of `type` under `name` in this scope or an enclosing one of the same manager.
    func instance(of type: ObjectIdentifier, name: String?) -> TypedInstance? {
        var scope: OverrideScope? = self
        while let found = scope {
            if found.manager == manager, let instance = found.overrides.instances[ServiceOverrides.Key(type: type, name: name)] {
                return instance
            }
            scope = found.parent
        }
        return nil
    }

    func madeInstance(_ slot: ScopedSlot) -> InstanceBox? {
        made.withLock { $0[slot] }
    }

    /// Keeps the first instance made for `slot`; returns the one kept.
    func keep(_ instance: InstanceBox, for slot: ScopedSlot) -> InstanceBox {
        made.withLock { made in
            if let existing = made[slot] { return existing }
            made[slot] = instance
            return instance
        }
    }
}

extension ServiceManager {
    /// Runs `operation` with the services `configure` sets replacing the app's, for this manager only. The
    /// overrides are seen by lookups inside the closure and the tasks it starts (they are task-local), and
    /// nowhere else: the app's registrations and cached instances are not touched. Scopes nest; the inner one
    /// wins.
    public func withOverrides<Result>(
        _ configure: (inout ServiceOverrides) throws -> Void, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await OverrideScope.$current.withValue(try makeScope(configure)) { try await operation() }
    }

    /// `withOverrides(_:operation:)` for synchronous code.
    public func withOverrides<Result>(
        _ configure: (inout ServiceOverrides) throws -> Void, operation: () throws -> Result
    ) rethrows -> Result {
        try OverrideScope.$current.withValue(try makeScope(configure)) { try operation() }
    }

    private func makeScope(_ configure: (inout ServiceOverrides) throws -> Void) rethrows -> OverrideScope {
        var overrides = ServiceOverrides()
        try configure(&overrides)
        OverrideScope.everEntered.store(true, ordering: .relaxed)
        return OverrideScope(manager: ObjectIdentifier(self), overrides: overrides, parent: OverrideScope.current)
    }

    /// The override of a lookup, if a scope of this manager replaces it. Inlined into the cached path, which
    /// then pays one relaxed load for overrides in an app that never enters a scope.
    @inline(__always)
    func overriddenInstance(of service: ObjectIdentifier, name: String?) -> TypedInstance? {
        guard OverrideScope.everEntered.load(ordering: .relaxed), OverrideScope.current != nil else { return nil }
        return OverrideScope.innermost(for: ObjectIdentifier(self))?.instance(of: service, name: name)
    }
}

extension ServiceManager {
    /// Inside an override scope, a cached-scope instance that does not exist yet is made for the scope and
    /// kept there; nil outside every scope.
    func instanceInOverrideScope(
        of registration: Registration, named name: String?, make: () throws(ServiceError) -> Any
    ) throws(ServiceError) -> InstanceBox? {
        guard OverrideScope.everEntered.load(ordering: .relaxed), OverrideScope.current != nil,
            let scope = OverrideScope.innermost(for: ObjectIdentifier(self))
        else {
            return nil
        }
        let slot = OverrideScope.ScopedSlot(registration: ObjectIdentifier(registration), name: name)
        if let made = scope.madeInstance(slot) { return made }
        return scope.keep(InstanceBox(try make()), for: slot)
    }
}
