/// A call the mediator found nobody for, as its fallback receives it (CTMediator's `Target_NoTargetAction` and
/// `notFound:`).
public enum MediatorMiss: Sendable {
    /// No target is registered under this name.
    case unknownTarget(target: String, action: String, parameters: RouteParameters)
    /// The target exists but has no such action.
    case unknownAction(target: String, action: String, parameters: RouteParameters)

    public var target: String {
        switch self {
        case .unknownTarget(let target, _, _), .unknownAction(let target, _, _): target
        }
    }

    public var action: String {
        switch self {
        case .unknownTarget(_, let action, _), .unknownAction(_, let action, _): action
        }
    }

    public var parameters: RouteParameters {
        switch self {
        case .unknownTarget(_, _, let parameters), .unknownAction(_, _, let parameters): parameters
        }
    }
}
