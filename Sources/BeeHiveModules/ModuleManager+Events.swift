import BeeHiveObservation

extension ModuleManager {
    /// Delivers a system event to every module, in order (BeeHive's `triggerEvent:`).
    /// - Throws: `.notStarted`, `.stopped`, or under `.failFast` the first failing hook (later modules do
    ///   not get the event).
    public func trigger(_ event: SystemEvent, customParameter: (any Sendable)? = nil) throws(ModuleError) {
        let (snapshot, environment) = try dispatchState()
        let context = ModuleContext(
            manager: self, event: .system(event), customParameter: customParameter, environment: environment)
        let targets = snapshot.targets
        let names = snapshot.names
        // `snapshot` keeps the entries alive until the dispatch ends.
        try withExtendedLifetime(snapshot) { () throws(ModuleError) in
            switch event {
            case .willTerminate: try deliver(WillTerminateHook.self, .system(event), targets, names, context)
            case .reload: try deliver(ReloadHook.self, .system(event), targets, names, context)
            case .didReceiveMemoryWarning: try deliver(MemoryWarningHook.self, .system(event), targets, names, context)
            case .userSignal1, .userSignal2: try deliver(UserSignalHook.self, .system(event), targets, names, context)
            case .openURL: try deliver(OpenURLHook.self, .system(event), targets, names, context)
            }
        }
    }

    /// Delivers a custom event with its parameter to the handlers registered for it, in module order
    /// (BeeHive's `triggerEvent:withCustomParam:`).
    public func trigger(_ event: CustomEvent, customParameter: (any Sendable)? = nil) throws(ModuleError) {
        let (snapshot, environment) = try dispatchState()
        guard let list = snapshot.handlers[event] else { return }
        let context = ModuleContext(
            manager: self, event: .custom(event), customParameter: customParameter, environment: environment)
        try withExtendedLifetime(list) { () throws(ModuleError) in
            try deliver(CustomEventHook.self, .custom(event), list.targets, list.names, context)
        }
    }

    /// Registers `handler` to run when `event` is triggered, on behalf of a registered module
    /// (BeeHive's `registerCustomEvent:withModuleInstance:andSelectorStr:`). Handlers run in module order
    /// and go away when their module is unregistered.
    public func addHandler(
        for event: CustomEvent, module: some Module, _ handler: @escaping @Sendable (ModuleContext) throws -> Void
    ) throws(ModuleError) {
        try state.withLock { state throws(ModuleError) in
            guard let entry = state.entries[ObjectIdentifier(type(of: module))], entry.module === module else {
                throw .notRegistered(module: type(of: module).moduleName)
            }
            state.handlers[ObjectIdentifier(entry), default: [:]][event, default: []].append(
                CustomHandler(module: entry.name, run: handler))
            state.snapshot = nil
        }
    }

    /// Removes the handlers a module registered for `event`.
    public func removeHandlers(for event: CustomEvent, module: some Module) {
        // Returned, the handlers and the snapshot that holds them too are released after the lock is let go:
        // a closure's captures may call back into the manager as they go.
        _ = state.withLock { state -> (handlers: [CustomHandler]?, snapshot: Snapshot?)? in
            guard let entry = state.entries[ObjectIdentifier(type(of: module))], entry.module === module else { return nil }
            let handlers = state.handlers[ObjectIdentifier(entry)]?.removeValue(forKey: event)
            defer { state.snapshot = nil }
            return (handlers, state.snapshot)
        }
    }

    private func dispatchState() throws(ModuleError) -> (Snapshot, ModuleEnvironment) {
        try state.withLock { state throws(ModuleError) in
            switch state.phase {
            case .idle: throw .notStarted
            case .stopped: throw .stopped
            case .running: return (Self.snapshot(of: &state), state.environment)
            }
        }
    }

    /// The loop every dispatch runs. Without profiler, watchdog and observer it only calls and checks for
    /// errors; with them it adds two relaxed atomic stores and one clock read per module, one buffer per
    /// dispatch, and a span per hook.
    /// The caller keeps the targets alive.
    private func deliver<Hook: DispatchHook>(
        _ hook: Hook.Type, _ event: ModuleEvent, _ targets: [Unmanaged<Hook.Target>], _ names: [String],
        _ context: ModuleContext
    ) throws(ModuleError) {
        let count = targets.count
        let profiling = profiler.isEnabled
        guard profiling || watchdog != nil || HiveObserver.isBootstrapped else {
            for index in 0..<count {
                do {
                    try targets[index]._withUnsafeGuaranteedRef { try Hook.call($0, context) }
                } catch {
                    try fail(HookFailure(module: names[index], event: event, error: error))
                }
            }
            return
        }
        let slot = watchdog?.begin(event, names: names)
        var stamps = profiling ? [UInt64](repeating: 0, count: count + 1) : []
        var completed = 0
        defer {
            if let slot { watchdog?.end(slot) }
            if profiling {
                profiler.record(event, names: names, stamps: stamps, count: completed, thread: MonotonicClock.threadID())
            }
        }
        if profiling { stamps[0] = MonotonicClock.now() }
        for index in 0..<count {
            slot?.enter(index)
            let span = HiveObserver.startSpan(event.description, module: names[index], parent: nil)
            var failure: (any Error)?
            do {
                try targets[index]._withUnsafeGuaranteedRef { try Hook.call($0, context) }
            } catch {
                failure = error
            }
            span?.end(error: failure)
            slot?.leave(index)
            if profiling { stamps[index + 1] = MonotonicClock.now() }
            completed = index + 1
            if let failure { try fail(HookFailure(module: names[index], event: event, error: failure)) }
        }
    }

    private func fail(_ failure: HookFailure) throws(ModuleError) {
        log.report(ModuleDiagnostic(.hookFailed(failure)))
        if failurePolicy == .failFast { throw .hookFailed(failure) }
    }
}
