// The shop's HTTP server: `scripts/demo --server` runs it on 127.0.0.1:8080 (SHOP_SERVER_PORT picks another
// port; 0 lets the system choose), with the plugins folder of BEEHIVE_PLUGIN_PATH. SIGTERM or Ctrl-C stops it
// gracefully: requests in flight finish, then the modules are torn down.
import BeeHive
import BeeHiveHummingbird
import Foundation
import Logging

var logger = Logger(label: "shop-server")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
let port = ProcessInfo.processInfo.environment["SHOP_SERVER_PORT"].flatMap(Int.init) ?? 8080

let host = HiveHost(logger: logger)
try host.hive.modules.register(CatalogModule.self)
host.hive.services.register((any Inventory).self) { _, _ in FixedInventory() }

let http = HiveHTTP(host: host, logger: logger)
// BeeHive has a `Router` of its own (URL routing): name Hummingbird's.
let router = Hummingbird.Router()
router.add(middleware: http)
router.get("/health") { _, _ in "ok\n" }

var app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        // Written at once, not buffered: scripts wait for this line.
        FileHandle.standardOutput.write(Data("ShopServer listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
    },
    logger: logger
)
app.addHive(http)
try await app.runService()
