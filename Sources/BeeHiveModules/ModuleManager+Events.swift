extension ModuleManager {
    /// Delivers a system event to every module, in order (BeeHive's `triggerEvent:`).
    /// - Throws: `.notStarted`, `.stopped`, or under `.failFast` the first failing hook (later modules do
    ///   not get the event).
    public func trigger(_ event: SystemEvent, customParameter: (any Sendable)? = nil) throws(ModuleError) {
        let (snapshot, environment) = try dispatchState()
        let context = ModuleContext(
            manager: self, event: .system(event), customParameter: customParameter, environment: environment)
        let modules = snapshot.modules
        let hook = Self.hook(for: event)
        try deliver(.system(event), names: snapshot.names) { index in try hook(modules[index], context) }
    }

    /// Delivers a custom event with its parameter to the handlers registered for it, in module order
    /// (BeeHive's `triggerEvent:withCustomParam:`).
    public func trigger(_ event: CustomEvent, customParameter: (any Sendable)? = nil) throws(ModuleError) {
        let (snapshot, environment) = try dispatchState()
        guard let list = snapshot.handlers[event] else { return }
        let context = ModuleContext(
            manager: self, event: .custom(event), customParameter: customParameter, environment: environment)
        let handlers = list.handlers
        try deliver(.custom(event), names: list.names) { index in try handlers[index](context) }
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
            state.handlers[ObjectIdentifier(entry), default: [:]][event, default: []].append(handler)
            state.snapshot = nil
        }
    }

    /// Removes the handlers a module registered for `event`.
    public func removeHandlers(for event: CustomEvent, module: some Module) {
        state.withLock { state in
            guard let entry = state.entries[ObjectIdentifier(type(of: module))], entry.module === module else { return }
            state.handlers[ObjectIdentifier(entry)]?[event] = nil
            state.snapshot = nil
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

    /// The loop every dispatch runs. Without profiler and watchdog it only calls and checks for errors; with
    /// them it adds two atomic stores and one clock read per module, and one buffer per dispatch.
    private func deliver(
        _ event: ModuleEvent, names: [String], _ call: (Int) throws -> Void
    ) throws(ModuleError) {
        let count = names.count
        guard profiler.isEnabled || watchdog != nil else {
            for index in 0..<count {
                do { try call(index) } catch { try fail(HookFailure(module: names[index], event: event, error: error)) }
            }
            return
        }
        let slot = watchdog?.begin(event, names: names)
        var stamps = profiler.isEnabled ? [UInt64](repeating: 0, count: count + 1) : []
        var completed = 0
        defer {
            if let slot { watchdog?.end(slot) }
            if profiler.isEnabled {
                profiler.record(event, names: names, stamps: stamps, count: completed, thread: MonotonicClock.threadID())
            }
        }
        if profiler.isEnabled { stamps[0] = MonotonicClock.now() }
        for index in 0..<count {
            slot?.enter(index)
            var failure: (any Error)?
            do { try call(index) } catch { failure = error }
            slot?.leave(index)
            if profiler.isEnabled { stamps[index + 1] = MonotonicClock.now() }
            completed = index + 1
            if let failure { try fail(HookFailure(module: names[index], event: event, error: failure)) }
        }
    }

    private func fail(_ failure: HookFailure) throws(ModuleError) {
        log.report(ModuleDiagnostic(.hookFailed(failure)))
        if failurePolicy == .failFast { throw .hookFailed(failure) }
    }

    private static func hook(for event: SystemEvent) -> (any Module, ModuleContext) throws -> Void {
        switch event {
        case .willTerminate: { try $0.willTerminate($1) }
        case .reload: { try $0.reload($1) }
        case .didReceiveMemoryWarning: { try $0.didReceiveMemoryWarning($1) }
        case .userSignal1, .userSignal2: { try $0.didReceiveUserSignal($1) }
        case .openURL: { try $0.openURL($1) }
        }
    }
}
