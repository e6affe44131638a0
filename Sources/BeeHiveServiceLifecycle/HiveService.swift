import ServiceLifecycle

/// A BeeHive host as a swift-service-lifecycle `Service`: put it in the app's `ServiceGroup` and a graceful
/// shutdown (SIGTERM, say) ends in `willTerminate` and tearDown of every module in reverse order, while a
/// module whose failure behaviour is `.stopsApp` ends the group by throwing.
///
///     let host = HiveHost()
///     let group = ServiceGroup(
///         services: [HiveService(host.serve), httpServer], gracefulShutdownSignals: [.sigterm], logger: logger)
///     try await group.run()
///
/// Why it takes `host.serve` rather than the host: this library is linked statically into the app, so that
/// it waits on the app's own copy of ServiceLifecycle (a copy inside `libBeeHive.so` would never hear the
/// app's graceful shutdown). Naming a BeeHive type here would link a second, static copy of BeeHive's core
/// into the app next to `libBeeHive.so`; a function value has a structural type, the same in every copy.
public struct HiveService: Service {
    /// `HiveHost.serve(untilShutdown:)`: runs the modules until the closure returns.
    public typealias Serve = @Sendable (_ untilShutdown: @escaping @Sendable () async throws -> Void) async throws -> Void

    private let serve: Serve

    public init(_ serve: @escaping Serve) {
        self.serve = serve
    }

    public func run() async throws {
        try await serve { try await gracefulShutdown() }
    }
}
