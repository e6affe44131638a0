// The host the tests run as a child process: two linked HTTP modules, the plugin folders of
// BEEHIVE_PLUGIN_PATH, and a Hummingbird application on 127.0.0.1 with a port the system picks. It prints
// `listening PORT` once it serves, and `event ...` lines from module hooks and handlers, which the tests read.
import BeeHive
import BeeHiveHummingbird
import Foundation
import Logging
import Tracing

func event(_ text: String) {
    FileHandle.standardOutput.write(Data("event \(text)\n".utf8))
}

protocol PriceList: Sendable {
    func price(of item: String) -> Int?
}

struct FixedPrices: PriceList {
    func price(of item: String) -> Int? { ["apple": 3, "pear": 4][item] }
}

/// A linked module: its routes are mounted when the host starts.
final class CatalogModule: HTTPModule {
    static var httpPath: String { "/catalog" }

    init() {}

    func setUp(_ context: ModuleContext) throws { event("setUp CatalogModule") }
    func initialize(_ context: ModuleContext) throws { event("init CatalogModule") }
    func willTerminate(_ context: ModuleContext) throws { event("willTerminate CatalogModule") }
    func tearDown(_ context: ModuleContext) throws { event("tearDown CatalogModule") }

    func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get("items") { _, _ in "apple,pear" }
        // A service of the hive, reached from a handler through `@Injected`.
        routes.get("price/:item") { _, context in
            let prices = Injected<any PriceList>()
            let item = try context.parameters.require("item")
            guard let price = try prices.resolve().price(of: item) else { throw HTTPError(.notFound) }
            return "\(price)"
        }
        // A span of the module's own, whose parent is the request's span.
        routes.get("traced") { _, _ in
            withSpan("catalog.lookup") { _ in "traced" }
        }
        // Holds the request open, for the test of a graceful shutdown with requests in flight.
        routes.get("slow") { request, _ in
            let milliseconds = request.uri.queryParameters["ms"].flatMap { Int($0) } ?? 1000
            event("slow started")
            try? await Task.sleep(for: .milliseconds(milliseconds))
            event("slow finished")
            return "done"
        }
    }
}

/// Set up after the catalog, so torn down before it.
final class OrdersModule: HTTPModule {
    static var httpPath: String { "/orders" }
    static var dependencies: [ModuleDependency] { [.module(CatalogModule.self)] }

    init() {}

    func setUp(_ context: ModuleContext) throws { event("setUp OrdersModule") }
    func willTerminate(_ context: ModuleContext) throws { event("willTerminate OrdersModule") }
    func tearDown(_ context: ModuleContext) throws { event("tearDown OrdersModule") }

    func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get { _, _ in "no orders" }
    }
}

var logger = Logger(label: "http-fixture-host")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
let host = HiveHost(hive: .shared, logger: logger)
try host.hive.modules.register(CatalogModule.self)
try host.hive.modules.register(OrdersModule.self)
host.hive.services.register((any PriceList).self) { _, _ in FixedPrices() }
let tracer = RecordingTracer()
InstrumentationSystem.bootstrap(tracer)
let http = HiveHTTP(host: host, logger: logger)
// BeeHive has a `Router` of its own (URL routing): name Hummingbird's.
let router = Hummingbird.Router()
router.add(middleware: TracingMiddleware())
router.add(middleware: http)
router.get("/host/spans") { _, _ in
    tracer.ended.withLock { spans in
        spans.map { "\($0.name)|\($0.id)|\($0.parent.map(String.init) ?? "-")" }.joined(separator: "\n")
    }
}
router.get("/host/types") { _, _ in
    "\(ObjectIdentifier(Response.self).hashValue) \(ObjectIdentifier(Hummingbird.Router<BasicRequestContext>.self).hashValue)"
}
router.get("/host/plugins") { _, _ in
    host.hive.pluginsLoadedOnFirstUse.map(\.path).joined(separator: "\n")
}
router.post("/host/rescan") { _, _ in
    await http.rescanPluginFolders().joined(separator: "\n")
}
var app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("listening \(channel.localAddress?.port ?? 0)\n".utf8))
    },
    logger: logger
)
app.addHive(http)
try await app.runService()
event("exit")
