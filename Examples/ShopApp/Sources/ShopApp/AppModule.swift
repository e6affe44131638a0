import BeeHive
import ShopInterfaces

/// The app's own module, registered last in the order (priority -100): an event it receives has already been
/// through every other module, so it tells `main` that signals' events were delivered.
final class AppModule: Module {
    /// The process events the modules have finished handling.
    let delivered: AsyncStream<ModuleEvent>
    private let continuation: AsyncStream<ModuleEvent>.Continuation

    init() {
        (delivered, continuation) = AsyncStream.makeStream()
    }

    func splash(_ context: ModuleContext) throws {
        Story.tell("App", "splash: every module is up")
    }

    func reload(_ context: ModuleContext) throws {
        continuation.yield(context.event)
    }

    func didReceiveUserSignal(_ context: ModuleContext) throws {
        continuation.yield(context.event)
    }

    func willTerminate(_ context: ModuleContext) throws {
        continuation.yield(context.event)
    }
}
