/// A hook that threw: which module, which event, and the error.
public struct HookFailure: Error, Sendable, CustomStringConvertible {
    public let module: String
    public let event: ModuleEvent
    public let error: any Error

    public init(module: String, event: ModuleEvent, error: any Error) {
        self.module = module
        self.event = event
        self.error = error
    }

    public var description: String { "module \(module) failed in \(event): \(error)" }
}
