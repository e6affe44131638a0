/// A hook that threw: which module, which event, and the error.
public struct HookFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let module: String
    public let event: ModuleEvent
    public let error: any Error

    package init(module: String, event: ModuleEvent, error: any Error) {
        self.module = module
        self.event = event
        self.error = error
    }

    /// Failures are equal when the module, the event and the error's description are: errors in general
    /// cannot be compared.
    public static func == (lhs: HookFailure, rhs: HookFailure) -> Bool {
        lhs.module == rhs.module && lhs.event == rhs.event && String(describing: lhs.error) == String(describing: rhs.error)
    }

    public var description: String { "module \(module) failed in \(event): \(error)" }
}
