public import Hummingbird
import ServiceLifecycle

extension Application {
    /// Runs `http`'s host in this application's ServiceGroup: the host starts its modules (setUp, init, async
    /// inits, splash) and `http` mounts their routes before the server accepts a connection; on a graceful
    /// shutdown (SIGTERM with `runService()`), the server stops accepting and finishes the requests in flight
    /// first, then the modules get `willTerminate` and are torn down in reverse order.
    ///
    /// A SIGHUP rescans the plugin folders (`HiveHTTP.rescanPluginFolders()`), besides sending `reload` to
    /// every module.
    ///
    /// When the host cannot start, the application fails with its `HiveError` before serving anything.
    public mutating func addHive<Context: RequestContext>(_ http: HiveHTTP<Context>) where Responder.Context == Context {
        let (started, announce) = AsyncStream<Void>.makeStream()
        let host = http.host
        beforeServerStarts {
            do {
                try host.hive.modules.register(PluginRescanModule { await http.rescanPluginFolders() })
                http.rescan.takeBaseline()
                try await host.start()
            } catch {
                try? await host.shutdown()
                announce.finish()
                throw error
            }
            await http.mountModules()
            http.prepareClaims()
            announce.yield()
            announce.finish()
        }
        addServices(HiveHostService(serve: host.serve, started: started))
    }
}

/// The host as a service of the application's ServiceGroup. The application runs its services before the
/// server and shuts them down after it, so the modules outlive every request. It waits for the start that
/// `addHive(_:)` runs before the server, so that `serve` (which starts the host too) finds it started.
struct HiveHostService: Service {
    let serve: @Sendable (_ untilShutdown: @escaping @Sendable () async throws -> Void) async throws -> Void
    let started: AsyncStream<Void>

    func run() async throws {
        var announcements = started.makeAsyncIterator()
        // Nothing when the start failed or the group was cancelled first.
        guard await announcements.next() != nil else { return }
        try await serve { try await gracefulShutdown() }
    }
}
