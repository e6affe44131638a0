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
        await setUpAll(batch)
        if batch.failure == nil && !Task.isCancelled {
            await initializeAll(batch)
        } else {
            for entry in batch.entries { settleInit(entry, failed: true) }
        }
        if batch.failure == nil && !Task.isCancelled { await splashAll(batch) }
        finishLaunch(batch)
    }

    private func setUpAll(_ batch: LaunchBatch) async {
        for entry in batch.entries {
            if Task.isCancelled { return }
            guard entry.claim(at: .registered) else { continue }
            let failure = await invokeAsync(.setUp, on: entry, in: batch.span)
            if let retirement = entry.release(at: .setUp) { _ = await performRetirementAsync(entry, retirement) }
            if let failure, failureStops(failure, of: entry) {
                batch.recordFailure(.hookFailed(failure))
                return
            }
        }
    }

    /// Runs each init as soon as the inits it depends on are done: synchronous modules whose dependencies
    /// are done right here, in order; the others as child tasks, so that independent ones overlap.
    private func initializeAll(_ batch: LaunchBatch) async {
        await withTaskGroup(of: Void.self) { group in
            for entry in batch.entries {
                if batch.failure != nil || Task.isCancelled {
                    settleInit(entry, failed: true)
                    continue
                }
                let dependencies = state.withLock { state in
                    entry.descriptor.dependencies.compactMap { state.entriesByName[$0] }.filter { $0 !== entry }
                }
                let outcomes = dependencies.map(\.initOutcome)
                if !entry.initRunsConcurrently && !outcomes.contains(nil) {
                    await initialize(entry, in: batch, dependencyFailed: outcomes.contains(true))
                    continue
                }
                group.addTask {
                    var failed = false
                    for dependency in dependencies {
                        let dependencyFailed = await withCheckedContinuation { continuation in
                            dependency.whenInitSettled { continuation.resume(returning: $0) }
                        }
                        failed = failed || dependencyFailed
                    }
                    await self.initialize(entry, in: batch, dependencyFailed: failed)
                }
            }
        }
    }

    private func initialize(_ entry: ModuleEntry, in batch: LaunchBatch, dependencyFailed: Bool) async {
        if batch.failure != nil || (dependencyFailed && failurePolicy == .failFast) || Task.isCancelled {
            settleInit(entry, failed: true)
            return
        }
        var failure: HookFailure?
        if entry.claim(at: .setUp) {
            failure = await invokeAsync(.initialize, on: entry, in: batch.span)
            if let retirement = entry.release(at: .initialized) { _ = await performRetirementAsync(entry, retirement) }
        }
        if let failure, failureStops(failure, of: entry) { batch.recordFailure(.hookFailed(failure)) }
        settleInit(entry, failed: failure != nil)
    }

    private func settleInit(_ entry: ModuleEntry, failed: Bool) {
        for waiter in entry.settleInit(failed: failed) { waiter(failed) }
    }

    private func splashAll(_ batch: LaunchBatch) async {
        for entry in batch.entries {
            if Task.isCancelled { return }
            guard entry.claim(at: .initialized) else { continue }
            let failure = await invokeAsync(.splash, on: entry, in: batch.span)
            if let retirement = entry.release(at: .splashed) { _ = await performRetirementAsync(entry, retirement) }
            if let failure, failureStops(failure, of: entry) {
                batch.recordFailure(.hookFailed(failure))
                return
            }
        }
    }

    /// Stops the modules, awaiting their asynchronous hooks: cancels a launch under way and waits for it to
    /// end (each hook within its time limit), then tears every module down in reverse order. Events are
    /// refused afterwards.
    ///
    /// Unlike `stop()`, every module is torn down even when one fails.
    /// - Throws: the first failing tearDown that stops the app (under `.failFast`, or of a `.stopsApp`
    ///   module), once all are done.
    public func shutdown() async throws(ModuleError) {
        let (entries, launches) = beginStopping()
        for launch in launches { launch.cancel() }
        for launch in launches { await launch.task?.value }
        var firstFailure: HookFailure?
        for entry in entries.reversed() {
            guard let retirement = entry.requestRetirement(unmount: false) else { continue }
            if let failure = await performRetirementAsync(entry, retirement), failureStops(failure, of: entry),
                firstFailure == nil
            {
                firstFailure = failure
            }
        }
        if let firstFailure { throw .hookFailed(firstFailure) }
    }

    /// Sends `willTerminate` (with `customParameter`, such as the signal) to every module, then `shutdown()`:
    /// what a process does on SIGTERM.
    /// - Throws: the first failure that stops the app, after every module has been torn down.
    public func terminate(customParameter: (any Sendable)? = nil) async throws(ModuleError) {
        var firstFailure: ModuleError?
        do {
            try await send(.willTerminate, customParameter: customParameter)
        } catch .stopped, .notStarted {
        } catch {
            firstFailure = error
        }
        do {
            try await shutdown()
        } catch {
            if firstFailure == nil { firstFailure = error }
        }
        if let firstFailure { throw firstFailure }
    }

    /// Delivers a system event to every module in order, awaiting the asynchronous hooks of `AsyncModule`s
    /// (`trigger(_:)` calls the synchronous ones). willTerminate runs under the shutdown time limit.
    /// - Throws: `.notStarted`, `.stopped`, or the first failing hook that stops the app (later modules do
    ///   not get the event).
    public func send(_ event: SystemEvent, customParameter: (any Sendable)? = nil) async throws(ModuleError) {
        let entries = try state.withLock { state throws(ModuleError) -> [ModuleEntry] in
            switch state.phase {
            case .idle: throw .notStarted
            case .stopped: throw .stopped
            case .running: return Self.snapshot(of: &state).entries
            }
        }
        for entry in entries {
            if let failure = await invokeAsync(.system(event), on: entry, customParameter: customParameter),
                failureStops(failure, of: entry)
            {
                throw .hookFailed(failure)
            }
        }
    }

    /// Both hooks run even if tearDown throws: unmount is the module's last chance to let go.
    func performRetirementAsync(_ entry: ModuleEntry, _ retirement: ModuleEntry.Retirement) async -> HookFailure? {
        var failure: HookFailure?
        if retirement.tearDown { failure = await invokeAsync(.tearDown, on: entry) }
        if retirement.unmount, let unmountFailure = await invokeAsync(.unmount, on: entry), failure == nil {
            failure = unmountFailure
        }
        for waiter in entry.finishRetirement(retirement) { waiter(false) }
        return failure
    }

    /// Calls one hook of one module, watched, profiled, traced (within `parent`), under its time limit and
    /// reported. An `AsyncModule`'s
    /// hook is awaited; a synchronous hook of an asynchronous module runs on the blocking-friendly queue, so
    /// that it cannot starve the concurrency pool; other synchronous hooks run right here.
    func invokeAsync(
        _ event: ModuleEvent, on entry: ModuleEntry, customParameter: (any Sendable)? = nil,
        in parent: ObservedSpan? = nil
    ) async -> HookFailure? {
        let context = ModuleContext(
            manager: self, event: event, customParameter: customParameter, environment: environment)
        let slot = watchdog?.begin(event, names: [entry.name])
        slot?.enter(0)
        let limit = timeLimit(of: event, for: entry)
        let start = MonotonicClock.now()
        let span = HiveObserver.startSpan(event.description, module: entry.name, parent: parent)
        var error: (any Error)?
        if let module = entry.asyncModule {
            error = Self.error(of: await TimeLimit.run(limit) { try await module.asynchronousHook(event, context) }, limit)
        } else if entry.descriptor.isAsync {
            let module = entry.module
            let queue = asyncQueue
            error = Self.error(
                of: await TimeLimit.run(limit) {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        queue.async {
                            continuation.resume(with: Result(catching: { try module.synchronousHook(event, context) }))
                        }
                    }
                }, limit)
        } else {
            do {
                try entry.module.synchronousHook(event, context)
            } catch let hookError {
                error = hookError
            }
            if error == nil, let limit, MonotonicClock.now() &- start > limit.nanoseconds {
                error = HookTimeLimitExceeded(limit: limit)
            }
        }
        let end = MonotonicClock.now()
        span?.end(error: error)
        if profiler.isEnabled {
            profiler.record(event, module: entry.name, from: start, to: end, thread: MonotonicClock.threadID())
        }
        if let slot {
            slot.leave(0)
            watchdog?.end(slot)
        }
        guard let error else { return nil }
        let failure = HookFailure(module: entry.name, event: event, error: error)
        log.report(ModuleDiagnostic(.hookFailed(failure)))
        return failure
    }

    private static func error(of outcome: TimeLimit.Outcome, _ limit: Duration?) -> (any Error)? {
        switch outcome {
        case .finished(let error): error
        case .timedOut: HookTimeLimitExceeded(limit: limit ?? .zero)
        }
    }
}
