/// A handler a module registered for a custom event.
final class CustomHandler: Sendable {
    let module: String
    let run: @Sendable (ModuleContext) throws -> Void

    init(module: String, run: @escaping @Sendable (ModuleContext) throws -> Void) {
        self.module = module
        self.run = run
    }
}
