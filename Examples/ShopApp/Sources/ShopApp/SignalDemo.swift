import BeeHive
import ShopInterfaces

#if canImport(Glibc)
import Glibc
#endif

/// `--signal NAME`: the app sends itself a signal and the modules receive it as an event, the way a Linux
/// service is told to reload (SIGHUP), to report (SIGUSR1/2) or to stop (SIGTERM, SIGINT).
extension ShopRuntime {
    func sendSignal(_ signal: ProcessSignal) async throws {
        try registerModules()
        try addPluginFolders()
        try await launch()
        try loadPlugin()
        let (terminated, termination) = AsyncStream<ProcessSignal>.makeStream()
        let source = ProcessEventSource(manager: hive.modules, signals: [signal], logger: logger) { signal in
            termination.yield(signal)
            termination.finish()
        }
        source.start()
        Story.chapter("Signal: kill(getpid(), \(signal)), delivered as the \(signal.event) event")
        kill(getpid(), signal.number)
        if signal.event == .willTerminate {
            // ProcessEventSource sends willTerminate, stops the modules, then calls us instead of exiting.
            for await _ in terminated {}
            Story.note("\(signal) handled: willTerminate, then tearDown in reverse order")
        } else {
            for await event in app.delivered where event == .system(signal.event) { break }
            source.cancel()
            Story.note("\(signal) handled: every module got \(signal.event)")
            try shutDown()
        }
        try printProfile()
    }
}
