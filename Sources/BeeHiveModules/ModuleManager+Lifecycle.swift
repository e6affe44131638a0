import BeeHiveObservation

extension ModuleManager {
    /// Sets up every registered module in order, initializes them (asynchronous modules off this thread)
    /// and splashes them once every init has finished. Synchronous modules are splashed before this returns
    /// when no asynchronous init is pending; `waitForLaunch()` waits for the rest.
    ///
    /// A synchronous module that depends on an asynchronous one is initialized as soon as that one is done,
    /// off this thread too. When any module is an `AsyncModule`, the whole launch runs in a task (see
    /// `AsyncModule`) and its hook failures are thrown by `waitForLaunch()`.
    /// - Throws: `.missingDependency` (nothing started; fix and call again), `.alreadyStarted`, `.stopped`,
    ///   or under `.failFast` the first failing setUp or synchronous init.
    public func start() throws(ModuleError) {
        let batch = try state.withLock { state throws(ModuleError) -> [ModuleEntry] in
            switch state.phase {
            case .running: throw .alreadyStarted
            case .stopped: throw .stopped
            case .idle: break
            }
            let snapshot = Self.snapshot(of: &state)
            for entry in snapshot.entries {
                if let missing = entry.descriptor.dependencies.first(where: { state.entriesByName[$0] == nil }) {
                    throw .missingDependency(module: entry.name, dependency: missing)
                }
            }
            state.phase = .running
            state.outstandingLaunches += 1
            return snapshot.entries
        }
        try launch(batch)
    }

    /// Returns once every module started so far, asynchronous inits included, has been initialized and
    /// splashed, or its launch has given up.
    /// - Throws: `.notStarted`; under `.failFast`, the first failure of any launch.
    public func waitForLaunch() async throws(ModuleError) {
        guard isStarted else { throw .notStarted }
        await launchesEnded()
        if let failure = state.withLock({ $0.launchFailure }) { throw failure }
    }

    /// Returns once no launch is under way.
    func launchesEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.outstandingLaunches == 0 { return true }
                state.launchWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Tears every module down in reverse order, with their synchronous tearDown. A launch still running
    /// in a task is cancelled. A module whose hook is running is torn down when it returns; one whose init
    /// has not run yet never gets it. Events are refused afterwards. Modules with asynchronous hooks are
    /// stopped with `shutdown()`.
    /// - Throws: the first failing tearDown that stops the app (under `.failFast`, or of a `.stopsApp`
    ///   module); the modules after it are not torn down.
    public func stop() throws(ModuleError) {
        let (entries, launches) = beginStopping()
        for launch in launches { launch.cancel() }
        for entry in entries.reversed() {
            if let failure = retire(entry, unmount: false), failureStops(failure, of: entry) {
                throw .hookFailed(failure)
            }
        }
    }

    /// Marks the manager stopped; returns its modules in order and the launches to cancel.
    func beginStopping() -> ([ModuleEntry], [LaunchBatch]) {
        let (entries, launches, waiters) = state.withLock {
            state -> ([ModuleEntry], [LaunchBatch], [CheckedContinuation<HookFailure?, Never>]) in
            guard state.phase != .stopped else { return ([], [], []) }
            state.phase = .stopped
            defer { state.failureWaiters = [] }
            return (Self.snapshot(of: &state).entries, Array(state.activeLaunches.values), state.failureWaiters)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        return (entries, launches)
    }

    /// Whether a failure ends the launch or dispatch it happened in: the module's failure behaviour, else the
    /// manager's policy. A failure of a `.stopsApp` module is also kept for `failureStoppingApp()`.
    func failureStops(_ failure: HookFailure, of entry: ModuleEntry) -> Bool {
        switch entry.failureBehavior {
        case .managerPolicy: return failurePolicy == .failFast
        case .reportOnly: return false
        case .stopsApp:
            let waiters = state.withLock { state -> [CheckedContinuation<HookFailure?, Never>] in
                guard state.failureStoppingApp == nil else { return [] }
                state.failureStoppingApp = failure
                defer { state.failureWaiters = [] }
                return state.failureWaiters
            }
            for waiter in waiters { waiter.resume(returning: failure) }
            return true
        }
    }

    /// Waits until a module whose failure behaviour is `.stopsApp` fails and returns that failure; nil once
    /// the manager is stopped without one. Returns at once if such a failure happened already.
    public func failureStoppingApp() async -> HookFailure? {
        await withCheckedContinuation { (continuation: CheckedContinuation<HookFailure?, Never>) in
            let outcome = state.withLock { state -> HookFailure?? in
                if let failure = state.failureStoppingApp { return .some(failure) }
                if state.phase == .stopped { return .some(nil) }
                state.failureWaiters.append(continuation)
                return .none
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Launches modules in order: setUp for all, then init, then splash once the last init is done.
    func launch(_ entries: [ModuleEntry]) throws(ModuleError) {
        if entries.contains(where: { $0.asyncModule != nil }) {
            launchInTask(entries)
            return
        }
        let batch = LaunchBatch(entries)
        guard !entries.isEmpty else {
            splash(batch)
            return
        }
        for entry in entries {
            guard entry.claim(at: .registered) else { continue }
            let failure = invoke(.setUp, on: entry, in: batch.span)
            if let retirement = entry.release(at: .setUp) { _ = performRetirement(entry, retirement) }
            if let failure, failureStops(failure, of: entry) {
                batch.recordFailure(.hookFailed(failure))
                for entry in entries { skipInit(entry, in: batch) }
                throw .hookFailed(failure)
            }
        }
        // Only a synchronous init that failed here is thrown: an init on the queue may fail meanwhile, and
        // `waitForLaunch()` throws that one.
        var failure: HookFailure?
        for entry in entries {
            if let stopping = scheduleInit(entry, in: batch), failure == nil { failure = stopping }
        }
        if let failure { throw .hookFailed(failure) }
    }

    /// Runs a synchronous init now when its dependencies are done, returning its failure if it stops the
    /// launch; otherwise queues the init to run once they are.
    private func scheduleInit(_ entry: ModuleEntry, in batch: LaunchBatch) -> HookFailure? {
        if batch.failure != nil {
            skipInit(entry, in: batch)
            return nil
        }
        let dependencies = state.withLock { state in
            entry.descriptor.dependencies.compactMap { state.entriesByName[$0] }.filter { $0 !== entry }
        }
        let outcomes = dependencies.map(\.initOutcome)
        if !entry.descriptor.isAsync && !outcomes.contains(nil) {
            return runInit(entry, in: batch, dependencyFailed: outcomes.contains(true))
        }
        if dependencies.isEmpty {
            asyncQueue.async { self.runInit(entry, in: batch, dependencyFailed: false) }
            return nil
        }
        let countdown = DependencyCountdown(dependencies.count)
        for dependency in dependencies {
            dependency.whenInitSettled { failed in
                guard let anyFailed = countdown.settle(failed: failed) else { return }
                self.asyncQueue.async { self.runInit(entry, in: batch, dependencyFailed: anyFailed) }
            }
        }
        return nil
    }

    /// Runs one module's init, then lets its dependents and its batch go on; returns its failure if it
    /// stops the launch.
    @discardableResult
    private func runInit(_ entry: ModuleEntry, in batch: LaunchBatch, dependencyFailed: Bool) -> HookFailure? {
        if batch.failure != nil || (dependencyFailed && failurePolicy == .failFast) {
            skipInit(entry, in: batch)
            return nil
        }
        var failure: HookFailure?
        if entry.claim(at: .setUp) {
            failure = invoke(.initialize, on: entry, in: batch.span)
            if let retirement = entry.release(at: .initialized) { _ = performRetirement(entry, retirement) }
        }
        var stopping: HookFailure?
        if let failure, failureStops(failure, of: entry) {
            batch.recordFailure(.hookFailed(failure))
            stopping = failure
        }
        for waiter in entry.settleInit(failed: failure != nil) { waiter(failure != nil) }
        if batch.settleOne() { splash(batch) }
        return stopping
    }

    /// Gives up a module's init: under `.failFast` after a failure, nothing more of the launch runs.
    private func skipInit(_ entry: ModuleEntry, in batch: LaunchBatch) {
        for waiter in entry.settleInit(failed: true) { waiter(true) }
        if batch.settleOne() { splash(batch) }
    }

    /// Splashes a batch whose inits are all done, in order, and ends its launch.
    private func splash(_ batch: LaunchBatch) {
        if batch.failure == nil {
            for entry in batch.entries {
                guard entry.claim(at: .initialized) else { continue }
                let failure = invoke(.splash, on: entry, in: batch.span)
                if let retirement = entry.release(at: .splashed) { _ = performRetirement(entry, retirement) }
                if let failure, failureStops(failure, of: entry) {
                    batch.recordFailure(.hookFailed(failure))
                    break
                }
            }
        }
        finishLaunch(batch)
    }

    /// Ends a batch's launch: `waitForLaunch()` returns once every launch has ended.
    func finishLaunch(_ batch: LaunchBatch) {
        let failure = batch.failure
        batch.span?.end(error: failure)
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.activeLaunches[ObjectIdentifier(batch)] = nil
            state.outstandingLaunches -= 1
            if state.launchFailure == nil { state.launchFailure = failure }
            guard state.outstandingLaunches == 0 else { return [] }
            defer { state.launchWaiters = [] }
            return state.launchWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Tears a module down (and unmounts it) now, or has whoever runs its current hook do it after.
    func retire(_ entry: ModuleEntry, unmount: Bool) -> HookFailure? {
        guard let retirement = entry.requestRetirement(unmount: unmount) else { return nil }
        return performRetirement(entry, retirement)
    }

    /// Both hooks run even if tearDown throws: unmount is the module's last chance to let go.
    func performRetirement(_ entry: ModuleEntry, _ retirement: ModuleEntry.Retirement) -> HookFailure? {
        var failure: HookFailure?
        if retirement.tearDown { failure = invoke(.tearDown, on: entry) }
        if retirement.unmount, let unmountFailure = invoke(.unmount, on: entry), failure == nil { failure = unmountFailure }
        for waiter in entry.finishRetirement(retirement) { waiter(false) }
        return failure
    }

    /// Calls one lifecycle hook of one module, watched, profiled, traced (within `parent`) and reported.
    func invoke(_ event: LifecycleEvent, on entry: ModuleEntry, in parent: ObservedSpan? = nil) -> HookFailure? {
        let moduleEvent = ModuleEvent.lifecycle(event)
        let context = ModuleContext(
            manager: self, event: moduleEvent, customParameter: nil, environment: environment)
        let slot = watchdog?.begin(moduleEvent, names: [entry.name])
        slot?.enter(0)
        let limit = timeLimit(of: moduleEvent, for: entry)
        let start = profiler.isEnabled || limit != nil ? MonotonicClock.now() : 0
        let span = HiveObserver.startSpan(moduleEvent.description, module: entry.name, parent: parent)
        var failure: HookFailure?
        do {
            try entry.module.synchronousHook(moduleEvent, context)
        } catch {
            failure = HookFailure(module: entry.name, event: moduleEvent, error: error)
        }
        let end = profiler.isEnabled || limit != nil ? MonotonicClock.now() : 0
        if failure == nil, let limit, end &- start > limit.nanoseconds {
            failure = HookFailure(module: entry.name, event: moduleEvent, error: HookTimeLimitExceeded(limit: limit))
        }
        span?.end(error: failure?.error)
        if profiler.isEnabled {
            profiler.record(moduleEvent, module: entry.name, from: start, to: end, thread: MonotonicClock.threadID())
        }
        if let slot {
            slot.leave(0)
            watchdog?.end(slot)
        }
        if let failure { log.report(ModuleDiagnostic(.hookFailed(failure))) }
        return failure
    }
}

extension ModuleManager {
    /// The time limit of a module's hook: the module's own, else the manager's for the phase; nil for
    /// hooks outside launch and shutdown.
    func timeLimit(of event: ModuleEvent, for entry: ModuleEntry) -> Duration? {
        switch event {
        case .lifecycle(.setUp), .lifecycle(.initialize), .lifecycle(.splash):
            entry.hookTimeLimit ?? launchTimeLimit
        case .lifecycle(.tearDown), .lifecycle(.unmount), .system(.willTerminate):
            entry.hookTimeLimit ?? shutdownTimeLimit
        default:
            nil
        }
    }
}
