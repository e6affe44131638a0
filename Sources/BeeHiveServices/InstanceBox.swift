/// A created service, as the manager keeps it for cached scopes.
///
/// `@unchecked Sendable`: the box is immutable, but the service in it need not be Sendable. Like every
/// dependency container, the manager hands a shared service to whichever thread asks; making a shared service
/// safe to use from several threads is the service's business (declare service protocols `Sendable` where you
/// can). Requiring `Sendable` here would shut out main-actor and legacy services.
final class InstanceBox: @unchecked Sendable {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}

/// A cached service already cast to the type a lookup asked for, so the cached path needs no dynamic cast.
///
/// The value lives behind a raw pointer so that reading it needs only the requested type's metadata, which
/// the lookup already has: going through a generic class would instantiate `Box<Service>` metadata on every
/// lookup in unspecialized code. Only ever stored under the `ObjectIdentifier` of the type it holds, which
/// is what makes `value(as:)` safe. `@unchecked Sendable` for the reason given on `InstanceBox`; the value is
/// never mutated after `init`.
class TypedInstance: @unchecked Sendable {
    /// Where the value is; lookups read it as the requested type without a cast.
    let storage: UnsafeMutableRawPointer

    fileprivate init(storage: UnsafeMutableRawPointer) {
        self.storage = storage
    }

    /// The value, which must be of type `Value`.
    func value<Value>(as type: Value.Type) -> Value {
        storage.assumingMemoryBound(to: Value.self).pointee
    }
}

/// Owns the value of a `TypedInstance`.
final class TypedInstanceBox<Value>: TypedInstance, @unchecked Sendable {
    init(_ value: Value) {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        pointer.initialize(to: value)
        super.init(storage: UnsafeMutableRawPointer(pointer))
    }

    deinit {
        let pointer = storage.assumingMemoryBound(to: Value.self)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// A weak-scope service: shared while someone holds it. `@unchecked Sendable` for the reason given on
/// `InstanceBox`; the weak reference itself is read and cleared atomically by the runtime.
final class WeakInstance: @unchecked Sendable {
    weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
