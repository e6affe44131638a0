import BeeHiveLocks
import BeeHiveServices

/// A service of the hive, looked up the first time it is read and then kept.
///
///     struct CheckoutHandler: Sendable {
///         @Injected var payments: any PaymentService
///         @Injected(name: "audit") var audit: any AuditLog
///
///         func charge(_ cents: Int) throws {
///             try $payments.resolve().charge(cents)   // a ServiceError naming the service if it is missing
///             audit.record("charged \(cents)")        // stops the process with that error's message
///         }
///     }
///
/// The hive is the one `Hive.withInjection(_:)` binds for the task that made the wrapper (the task that made
/// its module or handler), else the one bound for the task that first reads it, else `Hive.shared`. The first
/// successful read is kept for the wrapper, so a transient service gives one instance per wrapper, made on
/// first use. A `withOverrides` scope of the hive's service manager is honoured: a read inside it sees its
/// override, an instance looked up inside a scope is not handed out after it, and the one kept before the
/// scope comes back after it.
///
/// Reading the property cannot throw: when the service is missing it stops the process with the service's
/// name and what to register. Use `$property.resolve()` to get the `ServiceError` instead, and
/// `$property.resolveAsync()` for a service with an `async` factory (read it once that way, in `setUp` or
/// `initialize`, and the property then returns it).
///
/// In a `final class` that is checked `Sendable` (a module), the compiler refuses a property wrapper, whose
/// storage is a `var`: declare it as a constant, `let payments = Injected<any PaymentService>()`, and call
/// `try payments.resolve()`. The wrapper is `Sendable` when its service is.
@propertyWrapper
public struct Injected<Service> {
    private let slot: InjectionSlot

    /// The service registered under `name`, or the unnamed one.
    public init(name: String? = nil) {
        slot = InjectionSlot(name: name, hive: InjectionSlot.boundHive)
    }

    public var wrappedValue: Service {
        do {
            return try resolve()
        } catch {
            fatalError("@Injected \(_typeName(Service.self)): \(slot.explanation(of: error))")
        }
    }

    /// The wrapper itself, for `resolve()` and `resolveAsync()`.
    public var projectedValue: Injected<Service> { self }

    /// The service, looked up on the first call and kept; a `ServiceError` naming the service when it is not
    /// registered or cannot be made.
    public func resolve() throws(ServiceError) -> Service {
        try slot.value { services throws(ServiceError) in try services.resolve(Service.self, name: slot.name) }
    }

    /// `resolve()` for a service with an `async` factory, which it awaits; other services resolve as with
    /// `resolve()`.
    public func resolveAsync() async throws(ServiceError) -> Service {
        let services = slot.hive.services
        let scope = services.currentOverrideScope
        if let kept = slot.kept(in: scope) { return kept as! Service }
        return slot.keep(try await services.resolveAsync(Service.self, name: slot.name), in: scope) as! Service
    }
}

extension Injected: Sendable where Service: Sendable {}

extension Hive {
    /// Runs `operation` with this hive as the one that `@Injected` services are looked up in, for the wrappers
    /// made and first read inside it and in the tasks it starts (it is task-local). Without it, they use
    /// `Hive.shared`. For an app with a hive of its own, or tests that run several hives side by side.
    public func withInjection<Result>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await InjectionSlot.$boundHive.withValue(self, operation: operation)
    }

    /// `withInjection(_:)` for synchronous code.
    public func withInjection<Result>(_ operation: () throws -> Result) rethrows -> Result {
        try InjectionSlot.$boundHive.withValue(self, operation: operation)
    }
}

/// What an `Injected` wrapper keeps: the hive bound when it was made, and the instances it looked up, outside
/// override scopes and in the last one.
///
/// `@unchecked Sendable`: `state` is only reached under its lock; the instance is handed out as the manager
/// hands it out, and `Injected` is `Sendable` only when its service is.
final class InjectionSlot: @unchecked Sendable {
    @TaskLocal static var boundHive: Hive?

    let name: String?
    /// Weak: a module's wrapper would otherwise keep alive the hive that holds the module.
    private weak let madeIn: Hive?
    private let state = Locked(Kept())

    /// The instance looked up outside every override scope, and the one looked up in the last scope read in.
    private struct Kept {
        var outside: Any?
        var inScope: Any?
        weak var scope: AnyObject?

        /// The instance looked up in `scope` (nil: outside every scope). A scope that ended is nil here, and
        /// matches no scope in force.
        func instance(for scope: AnyObject?) -> Any? {
            guard let scope else { return outside }
            return self.scope === scope ? inScope : nil
        }
    }

    init(name: String?, hive: Hive?) {
        self.name = name
        madeIn = hive
    }

    var hive: Hive { madeIn ?? Self.boundHive ?? .shared }

    /// The kept instance, or the one `lookUp` gives, kept. The lookup runs without the lock (it runs factories);
    /// when two threads look up at once, both get the instance kept first.
    func value<Service>(_ lookUp: (ServiceManager) throws(ServiceError) -> Service) throws(ServiceError) -> Service {
        let services = hive.services
        let scope = services.currentOverrideScope
        if let instance = kept(in: scope) { return instance as! Service }
        return keep(try lookUp(services), in: scope) as! Service
    }

    /// The instance kept, if it was looked up in `scope` (nil: outside every scope).
    func kept(in scope: AnyObject?) -> Any? {
        state.withLock { $0.instance(for: scope) }
    }

    /// Keeps `instance` as looked up in `scope`, unless another thread kept one for that scope first; returns the
    /// one kept.
    func keep(_ instance: Any, in scope: AnyObject?) -> Any {
        let (winner, replaced) = state.withLock { kept -> (Any, Any?) in
            if let existing = kept.instance(for: scope) { return (existing, nil) }
            guard let scope else {
                kept.outside = instance
                return (instance, nil)
            }
            let replaced = kept.inScope
            kept.inScope = instance
            kept.scope = scope
            return (instance, replaced)
        }
        // The instance of an earlier scope is released here, after the lock: its deinit is user code.
        _ = replaced
        return winner
    }

    /// The message of a failed read: the error's, and the way out for a service registered with an `async`
    /// factory, which a synchronous read cannot run.
    func explanation(of error: ServiceError) -> String {
        guard case .notRegistered(let service, let name) = error.kind,
            hive.services.asyncFactoryRegistrations.contains(where: { $0.service == service && $0.name == name })
        else { return error.message }
        return "service \(service) has an async factory: read it once with `try await $property.resolveAsync()` "
            + "(in setUp or initialize, for a module) before reading the property"
    }
}
