import BeeHiveObservation

extension ModuleManager {
    /// Starts a launch that includes asynchronous modules in a task of its own, which `stop()` and
    /// `shutdown()` cancel.
    func launchInTask(_ entries: [ModuleEntry]) {
        let batch = LaunchBatch(entries)
        // Made under the lock, so that a concurrent shutdown finds the launch together with its task.
        state.withLock { state in
            state.activeLaunches[ObjectIdentifier(batch)] = batch
            batch.attach(Task { await self.runLaunch(batch) })
        }
    }

    /// setUp of every module in order, the inits as their dependencies allow, then splash in order.
    private func runLaunch(_ batch: LaunchBatch) async {
        await runInOrder(OrderedPhase(.setUp, of: batch, from: .registered, to: .setUp))
        if batch.failure == nil && !Task.isCancelled {
            await initializeAll(batch)
        } else {
            for entry in batch.entries { settleInit(entry, in: batch, failed: true) }
        }
        if batch.failure == nil && !Task.isCancelled {
            await runInOrder(OrderedPhase(.splash, of: batch, from: .initialized, to: .splashed))
        }
        finishLaunch(batch)
    }

    /// Runs the phase's hooks one module at a time in a worker task, and waits until they are done or the
    /// phase gives up; an overrunning hook is left behind to a new worker (see `OrderedPhase`).
    private func runInOrder(_ phase: OrderedPhase) async {
        phase.hooks.onOverrun { index, call in phase.takeOver(at: index, overran: call) }
        await withTaskCancellationHandler {
            // Every worker starts here, in the launch's task, not on the timer's thread: it inherits the
            // launch's task-local values.
            var next = OrderedPhase.Next.takeOver(generation: 0, index: 0, overran: nil)
            while case .takeOver(let generation, let index, let overran) = next {
                startWorker(of: phase, generation: generation, at: index, overran: overran)
                next = await phase.next()
            }
        } onCancel: {
            phase.cancel()
        }
        phase.hooks.finish()
    }

    private func startWorker(of phase: OrderedPhase, generation: Int, at index: Int, overran: HookCall?) {
        let worker = Task { await self.work(on: phase, generation: generation, at: index, overran: overran) }
        phase.attach(worker, generation: generation)
    }

    /// A worker: ends the hook its predecessor left behind, if any, then runs the phase's hook of each module
    /// from `index` on, until one stops the launch, the launch is cancelled, or a newer worker takes over.
    private func work(on phase: OrderedPhase, generation: Int, at index: Int, overran: HookCall?) async {
        let entries = phase.batch.entries
        var index = index
        if let overran {
            let error = HookTimeLimitExceeded(limit: overran.limit ?? .zero)
            if await endOrderedHook(overran, error: error, in: phase) || phase.isCancelled {
                phase.finish(generation: generation)
                return
            }
            index += 1
        }
        // Cancelling the phase cancels its worker: the task's flag is the phase's, with no lock to take.
        while index < entries.count && !Task.isCancelled {
            let entry = entries[index]
            if entry.claim(at: phase.from) {
                let call = beginHook(.lifecycle(phase.event), on: entry, in: phase.batch.span)
                phase.hooks.begin(index, call)
                let error = await runHook(call)
                guard phase.hooks.end(index, call) else { return }
                if await endOrderedHook(call, error: error, in: phase) { break }
            }
            index += 1
        }
        phase.finish(generation: generation)
    }

    /// Reports a setUp or splash, moves its module on and carries out a retirement asked for meanwhile;
    /// true when its failure stops the launch.
    private func endOrderedHook(_ call: HookCall, error: (any Error)?, in phase: OrderedPhase) async -> Bool {
        let failure = endHook(call, error: error)
        if let retirement = call.entry.release(at: phase.to) { _ = await performRetirementAsync(call.entry, retirement) }
        guard let failure, failureStops(failure, of: call.entry) else { return false }
        phase.batch.recordFailure(.hookFailed(failure))
        return true
    }

    /// Runs each init as soon as the inits it depends on are done: a synchronous module whose dependencies
    /// are done right here, in order; the others each in a task of its own, so that independent ones overlap.
    /// One timer watches the time limits of them all.
    private func initializeAll(_ batch: LaunchBatch) async {
        let hooks = RunningHooks(count: batch.entries.count)
        hooks.onOverrun { index, call in
            Task { await self.endInit(call, error: HookTimeLimitExceeded(limit: call.limit ?? .zero), in: batch) }
        }
        await withTaskCancellationHandler {
            for (index, entry) in batch.entries.enumerated() {
                await scheduleInit(index, of: entry, in: batch, hooks: hooks)
            }
            await batch.initsSettled()
        } onCancel: {
            hooks.cancelAll()
        }
        hooks.finish()
    }

    private func scheduleInit(_ index: Int, of entry: ModuleEntry, in batch: LaunchBatch, hooks: RunningHooks) async {
        if batch.failure != nil || Task.isCancelled {
            settleInit(entry, in: batch, failed: true)
            return
        }
        let declared = entry.descriptor.dependencies
        let dependencies = declared.isEmpty ? [] : state.withLock { state in
            declared.compactMap { state.entriesByName[$0] }.filter { $0 !== entry }
        }
        let outcomes = dependencies.map(\.initOutcome)
        if !outcomes.contains(nil) {
            if entry.initRunsConcurrently {
                startInit(index, of: entry, in: batch, hooks: hooks, dependencyFailed: outcomes.contains(true))
            } else {
                await initialize(index, of: entry, in: batch, hooks: hooks, dependencyFailed: outcomes.contains(true))
            }
            return
        }
        let countdown = DependencyCountdown(dependencies.count)
        for dependency in dependencies {
            dependency.whenInitSettled { failed in
                guard let anyFailed = countdown.settle(failed: failed) else { return }
                self.startInit(index, of: entry, in: batch, hooks: hooks, dependencyFailed: anyFailed)
            }
        }
    }

    private func startInit(
        _ index: Int, of entry: ModuleEntry, in batch: LaunchBatch, hooks: RunningHooks, dependencyFailed: Bool
    ) {
        let task = Task {
            await self.initialize(index, of: entry, in: batch, hooks: hooks, dependencyFailed: dependencyFailed)
        }
        hooks.attach(task, to: index)
    }

    private func initialize(
        _ index: Int, of entry: ModuleEntry, in batch: LaunchBatch, hooks: RunningHooks, dependencyFailed: Bool
    ) async {
        if batch.failure != nil || (dependencyFailed && failurePolicy == .failFast) || hooks.isCancelled {
            settleInit(entry, in: batch, failed: true)
            return
        }
        guard entry.claim(at: .setUp) else {
            settleInit(entry, in: batch, failed: false)
            return
        }
        let call = beginHook(.lifecycle(.initialize), on: entry, in: batch.span)
        hooks.begin(index, call)
        let error = await runHook(call)
        guard hooks.end(index, call) else { return }
        await endInit(call, error: error, in: batch)
    }

    /// Reports an init, moves its module on, and lets its dependents and the launch go on.
    private func endInit(_ call: HookCall, error: (any Error)?, in batch: LaunchBatch) async {
        let failure = endHook(call, error: error)
        if let retirement = call.entry.release(at: .initialized) { _ = await performRetirementAsync(call.entry, retirement) }
        if let failure, failureStops(failure, of: call.entry) { batch.recordFailure(.hookFailed(failure)) }
        settleInit(call.entry, in: batch, failed: failure != nil)
    }

    private func settleInit(_ entry: ModuleEntry, in batch: LaunchBatch, failed: Bool) {
        for waiter in entry.settleInit(failed: failed) { waiter(failed) }
        batch.settleOne()
    }

    /// Stops the modules, awaiting their asynchronous hooks: cancels a launch under way and waits for it to
    /// end (each hook within its time limit), then tears every module down in reverse order. Events are
    /// refused afterwards. With an observer, the shutdown is a span, the parent of the tearDowns.
    ///
    /// Unlike `stop()`, every module is torn down even when one fails.
    /// - Throws: the first failing tearDown that stops the app (under `.failFast`, or of a `.stopsApp`
    ///   module), once all are done.
    public func shutdown() async throws(ModuleError) {
        let span = HiveObserver.startSpan("shutdown", module: nil, parent: nil)
        let failure = await tearDownAll(in: span)
        span?.end(error: failure)
        if let failure { throw failure }
    }

    /// Cancels a launch under way (a synchronous one cannot be: it is waited for), waits for it, then sends `willTerminate` (with `customParameter`, such as
    /// the signal) to every module that was set up, in order, and tears them down in reverse order: what a
    /// process does on SIGTERM. With an observer, it is one shutdown span, the parent of those hooks.
    /// - Throws: the first failure that stops the app, after every module has been torn down.
    public func terminate(customParameter: (any Sendable)? = nil) async throws(ModuleError) {
        let span = HiveObserver.startSpan("shutdown", module: nil, parent: nil)
        await cancelLaunches()
        var firstFailure: ModuleError?
        do {
            try await deliver(.willTerminate, customParameter: customParameter, in: span, onlyToModulesSetUp: true)
        } catch .stopped, .notStarted {
        } catch {
            firstFailure = error
        }
        if let failure = await tearDownAll(in: span), firstFailure == nil { firstFailure = failure }
        span?.end(error: firstFailure)
        if let firstFailure { throw firstFailure }
    }

    /// Cancels the launches under way and waits for them to end, leaving the manager running. A launch of
    /// synchronous modules cannot be cancelled: it is waited for, so that no module gets willTerminate while
    /// one of its launch hooks runs.
    private func cancelLaunches() async {
        let launches = state.withLock { Array($0.activeLaunches.values) }
        for launch in launches { launch.cancel() }
        await launchesEnded()
    }

    /// Marks the manager stopped, cancels and awaits its launches, and tears every module down in reverse
    /// order (within `span`); returns the first failure that stops the app.
    private func tearDownAll(in span: ObservedSpan?) async -> ModuleError? {
        let (entries, launches) = beginStopping()
        for launch in launches { launch.cancel() }
        for launch in launches { await launch.task?.value }
        var firstFailure: HookFailure?
        for entry in entries.reversed() {
            guard let retirement = entry.requestRetirement(unmount: false) else { continue }
            if let failure = await performRetirementAsync(entry, retirement, in: span),
                failureStops(failure, of: entry), firstFailure == nil
            {
                firstFailure = failure
            }
        }
        return firstFailure.map { .hookFailed($0) }
    }

    /// Delivers a system event to every module in order, awaiting the asynchronous hooks of `AsyncModule`s
    /// (`trigger(_:)` calls the synchronous ones). willTerminate runs under the shutdown time limit.
    /// - Throws: `.notStarted`, `.stopped`, or the first failing hook that stops the app (later modules do
    ///   not get the event).
    public func send(_ event: SystemEvent, customParameter: (any Sendable)? = nil) async throws(ModuleError) {
        try await deliver(event, customParameter: customParameter, in: nil, onlyToModulesSetUp: false)
    }

    private func deliver(
        _ event: SystemEvent, customParameter: (any Sendable)?, in span: ObservedSpan?, onlyToModulesSetUp: Bool
    ) async throws(ModuleError) {
        let entries = try state.withLock { state throws(ModuleError) -> [ModuleEntry] in
            switch state.phase {
            case .idle: throw .notStarted
            case .stopped: throw .stopped
            case .running: return Self.snapshot(of: &state).entries
            }
        }
        for entry in entries {
            if onlyToModulesSetUp && !(ModuleEntry.Stage.setUp...ModuleEntry.Stage.splashed).contains(entry.stage) {
                continue
            }
            if let failure = await invokeAsync(
                .system(event), on: entry, customParameter: customParameter, in: span),
                failureStops(failure, of: entry)
            {
                throw .hookFailed(failure)
            }
        }
    }

    /// Both hooks run even if tearDown throws: unmount is the module's last chance to let go.
    func performRetirementAsync(
        _ entry: ModuleEntry, _ retirement: ModuleEntry.Retirement, in span: ObservedSpan? = nil
    ) async -> HookFailure? {
        var failure: HookFailure?
        if retirement.tearDown { failure = await invokeAsync(.tearDown, on: entry, in: span) }
        if retirement.unmount, let unmountFailure = await invokeAsync(.unmount, on: entry, in: span), failure == nil {
            failure = unmountFailure
        }
        for waiter in entry.finishRetirement(retirement) { waiter(false) }
        return failure
    }

    /// Calls one hook of one module, watched, profiled, traced (within `parent`), under its time limit and
    /// reported.
    func invokeAsync(
        _ event: ModuleEvent, on entry: ModuleEntry, customParameter: (any Sendable)? = nil,
        in parent: ObservedSpan? = nil
    ) async -> HookFailure? {
        let call = beginHook(event, on: entry, customParameter: customParameter, in: parent)
        guard call.isAwaited, let limit = call.limit else { return endHook(call, error: await runHook(call)) }
        switch await TimeLimit.run(limit, { try await self.runHookThrowing(call) }) {
        case .finished(let error): return endHook(call, error: error)
        case .timedOut: return endHook(call, error: HookTimeLimitExceeded(limit: limit))
        }
    }

    /// Starts one hook of one module: the watchdog, the clock, the span (within `parent`).
    func beginHook(
        _ event: ModuleEvent, on entry: ModuleEntry, customParameter: (any Sendable)? = nil,
        in parent: ObservedSpan?
    ) -> HookCall {
        let context = ModuleContext(
            manager: self, event: event, customParameter: customParameter, environment: environment)
        let slot = watchdog?.begin(event, names: [entry.name])
        slot?.enter(0)
        return HookCall(
            event: event, entry: entry, context: context, limit: timeLimit(of: event, for: entry),
            start: MonotonicClock.now(),
            span: HiveObserver.startSpan(event.description, module: entry.name, parent: parent), slot: slot)
    }

    /// Runs a hook: an `AsyncModule`'s is awaited; a synchronous hook of an asynchronous module runs on the
    /// blocking-friendly queue, so that it cannot starve the concurrency pool; other synchronous hooks run
    /// right here. Returns its error.
    func runHook(_ call: HookCall) async -> (any Error)? {
        do {
            try await runHookThrowing(call)
            return nil
        } catch {
            return error
        }
    }

    private func runHookThrowing(_ call: HookCall) async throws {
        let (event, context) = (call.event, call.context)
        if let module = call.entry.asyncModule {
            try await module.asynchronousHook(event, context)
        } else if call.entry.descriptor.isAsync {
            let module = call.entry.module
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                asyncQueue.async {
                    continuation.resume(with: Result(catching: { try module.synchronousHook(event, context) }))
                }
            }
        } else {
            try call.entry.module.synchronousHook(event, context)
        }
    }

    /// Ends a hook: a hook that returned after its limit overran it too. Profiles, traces and reports it.
    func endHook(_ call: HookCall, error: (any Error)?) -> HookFailure? {
        let end = MonotonicClock.now()
        var error = error
        if error == nil, let limit = call.limit, end &- call.start > limit.nanoseconds {
            error = HookTimeLimitExceeded(limit: limit)
        }
        call.span?.end(error: error)
        if profiler.isEnabled {
            profiler.record(call.event, module: call.entry.name, from: call.start, to: end, thread: MonotonicClock.threadID())
        }
        if let slot = call.slot {
            slot.leave(0)
            watchdog?.end(slot)
        }
        guard let error else { return nil }
        let failure = HookFailure(module: call.entry.name, event: call.event, error: error)
        log.report(ModuleDiagnostic(.hookFailed(failure)))
        return failure
    }
}
