/// A target of target-action calls through the ``Mediator``: CTMediator's `Target_X` class, with its
/// `Action_y:` methods replaced by a typed action enum, so dispatch is a `switch` the compiler checks and no
/// Objective-C runtime is involved.
///
/// ```swift
/// final class ShopTarget: MediatorTarget {
///     enum Action: String { case detail, list }
///     func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? {
///         switch action {
///         case .detail: return "detail of \(parameters["id"] ?? "?")"
///         case .list: return ["a", "b"]
///         }
///     }
/// }
/// ```
///
/// Types named in `.target` annotations must be top-level classes to be found by name (`Module.Type`).
public protocol MediatorTarget: SendableMetatype {
    /// The actions the target answers; a name that does not convert is an unknown action.
    associatedtype Action: RawRepresentable where Action.RawValue == String

    /// Targets registered by type are made for every call, as CTMediator does without target caching.
    init()

    /// Performs the action. An error thrown here reaches the caller as ``MediatorError/actionFailed(target:action:underlying:)``.
    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)?
}
