/// A module whose hooks may suspend: it opens connections, reads files and calls services with `await`.
///
///     final class DatabaseModule: AsyncModule {
///         init() {}
///         func initialize(_ context: ModuleContext) async throws {
///             try await pool.connect()
///         }
///     }
///
/// A launch that includes an asynchronous module runs in a task: `start()` returns at once and
/// `waitForLaunch()` waits for it. Set-ups and splashes still run one module at a time, in order; the inits
/// of modules that do not depend on each other run concurrently, each as a child task of the launch, and a
/// module's init starts once the inits of the modules it depends on have finished. Cancelling the launch
/// (`shutdown()` during launch) cancels the hooks under way.
///
/// Every asynchronous hook defaults to the synchronous one of `Module`, so a module can mix both. Use
/// `ModuleManager.shutdown()`, `terminate()` and `send(_:)` to have the asynchronous versions of tearDown,
/// willTerminate and reload called; the synchronous `stop()` and `trigger(_:)` call the synchronous ones.
public protocol AsyncModule: Module {
    func setUp(_ context: ModuleContext) async throws
    func initialize(_ context: ModuleContext) async throws
    func splash(_ context: ModuleContext) async throws
    func tearDown(_ context: ModuleContext) async throws
    func willTerminate(_ context: ModuleContext) async throws
    func reload(_ context: ModuleContext) async throws
}

extension AsyncModule {
    public var _asyncModule: (any AsyncModule)? { self }

    public func setUp(_ context: ModuleContext) async throws { try synchronousHook(.setUp, context) }
    public func initialize(_ context: ModuleContext) async throws { try synchronousHook(.initialize, context) }
    public func splash(_ context: ModuleContext) async throws { try synchronousHook(.splash, context) }
    public func tearDown(_ context: ModuleContext) async throws { try synchronousHook(.tearDown, context) }
    public func willTerminate(_ context: ModuleContext) async throws { try synchronousHook(.willTerminate, context) }
    public func reload(_ context: ModuleContext) async throws { try synchronousHook(.reload, context) }
}

extension Module {
    /// The synchronous hook for `event`: from a synchronous context overload resolution can only pick the
    /// `Module` requirement, never the `async` one of `AsyncModule` with the same name.
    func synchronousHook(_ event: ModuleEvent, _ context: ModuleContext) throws {
        switch event {
        case .lifecycle(.setUp): try setUp(context)
        case .lifecycle(.initialize): try initialize(context)
        case .lifecycle(.splash): try splash(context)
        case .lifecycle(.tearDown): try tearDown(context)
        case .lifecycle(.unmount): try unmount(context)
        case .system(.willTerminate): try willTerminate(context)
        case .system(.reload): try reload(context)
        case .system(.didReceiveMemoryWarning): try didReceiveMemoryWarning(context)
        case .system(.userSignal1), .system(.userSignal2): try didReceiveUserSignal(context)
        case .system(.openURL): try openURL(context)
        case .custom: break
        }
    }
}

extension AsyncModule {
    /// The asynchronous hook for `event`; events without one get the synchronous hook.
    func asynchronousHook(_ event: ModuleEvent, _ context: ModuleContext) async throws {
        switch event {
        case .lifecycle(.setUp): try await setUp(context)
        case .lifecycle(.initialize): try await initialize(context)
        case .lifecycle(.splash): try await splash(context)
        case .lifecycle(.tearDown): try await tearDown(context)
        case .system(.willTerminate): try await willTerminate(context)
        case .system(.reload): try await reload(context)
        default: try synchronousHook(event, context)
        }
    }
}
