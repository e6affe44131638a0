import BeeHiveModules

extension HiveHost {
    /// `stop(after:)` for modules whose hooks `await`: sends `willTerminate` (with `signal` as its custom
    /// parameter, if any), then tears the modules down in reverse order, awaiting the asynchronous hooks of
    /// `AsyncModule`s and cancelling a launch still under way. Does nothing if the modules never started or
    /// were stopped already.
    public func shutdown(after signal: ProcessSignal? = nil) async throws(HiveError) {
        let modules = hive.modules
        guard modules.isStarted && !modules.isStopped else { return }
        logger.info("stopping modules")
        do {
            try await modules.terminate(customParameter: signal)
        } catch .stopped {
            return
        } catch {
            throw .modules(error)
        }
    }

    /// Runs the modules for the life of a server: serves SIGHUP, SIGUSR1 and SIGUSR2 as module events (armed
    /// before the modules start), starts them, and runs until `waitForShutdown` returns (a graceful shutdown) or throws (the caller was
    /// cancelled), or a module whose failure behaviour is `.stopsApp` fails. Then it cancels a launch still
    /// under way, sends `willTerminate` to the modules that were set up and tears them down in reverse order,
    /// awaiting the asynchronous hooks of `AsyncModule`s.
    ///
    /// `BeeHiveServiceLifecycle`'s `HiveService` runs it in a swift-service-lifecycle `ServiceGroup`:
    ///
    ///     let group = ServiceGroup(services: [HiveService(host.serve)], gracefulShutdownSignals: [.sigterm], logger: logger)
    ///     try await group.run()
    ///
    /// - Throws: `HiveError.modules` when the launch fails, when a `.stopsApp` module fails (which ends the
    ///   service group), or when the shutdown fails; the error of `waitForShutdown` otherwise.
    public func serve(untilShutdown waitForShutdown: @escaping @Sendable () async throws -> Void) async throws {
        enum Ending: Sendable {
            case launched
            case launchFailed(any Error)
            case shutdown
            case shutdownWaitFailed(any Error)
            case moduleFailed(HookFailure)
            case modulesStopped
        }
        let modules = hive.modules
        // Armed before the first hook runs: a SIGHUP during the launch would otherwise end the process.
        let signals = ProcessEventSource(manager: modules, signals: [.hangUp, .user1, .user2], logger: logger)
        signals.start()
        defer { signals.cancel() }
        var shutdownError: ModuleError?
        // The launch runs beside the wait for a shutdown, so that a graceful shutdown during a long async init
        // cancels it rather than waiting for it.
        let ending = await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                do {
                    try await self.start()
                    return .launched
                } catch {
                    return .launchFailed(error)
                }
            }
            group.addTask {
                do {
                    try await waitForShutdown()
                    return .shutdown
                } catch {
                    return .shutdownWaitFailed(error)
                }
            }
            group.addTask { await modules.failureStoppingApp().map(Ending.moduleFailed) ?? .modulesStopped }
            var first = await group.next() ?? .modulesStopped
            if case .launched = first { first = await group.next() ?? .modulesStopped }
            logger.info("stopping modules", metadata: ["reason": "\(first)"])
            // Stopping the modules cancels a launch under way and ends the wait for a failure; cancelling ends
            // the wait for the shutdown.
            do throws(ModuleError) {
                try await modules.terminate()
            } catch {
                shutdownError = error
            }
            group.cancelAll()
            return first
        }
        switch ending {
        case .launchFailed(let error): throw error
        case .moduleFailed(let failure): throw HiveError.modules(.hookFailed(failure))
        case .shutdownWaitFailed(let error): throw error
        case .launched, .shutdown, .modulesStopped: break
        }
        if let shutdownError { throw HiveError.modules(shutdownError) }
    }
}
