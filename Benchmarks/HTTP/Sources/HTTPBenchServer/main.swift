// The server scripts/bench-http measures, in one of three modes:
//
//   http-bench-server direct ROUTES     ROUTES handlers on a plain Hummingbird router, under /items
//   http-bench-server mounted ROUTES    the same handlers from an HTTPModule at /items through HiveHTTP, and the
//                                       plugins of BEEHIVE_PLUGIN_PATH, loaded on their first request
//   http-bench-server dlopen PATH       prints how long dlopen(PATH) takes in this process, in microseconds
//
// The servers listen on 127.0.0.1 with a port the system picks and print `listening PORT`.
import BeeHive
import BeeHiveHummingbird
import Foundation

/// The routes both modes serve: ROUTES - 1 others, then the one the benchmark requests.
func addItemRoutes<Context: RequestContext>(to routes: RouterGroup<Context>, count: Int) {
    for index in 0..<max(count - 1, 0) {
        routes.get("r\(index)") { _, _ in "r" }
    }
    routes.get("target") { _, _ in "hello" }
}

/// The mounted mode's module, registered in code; it serves as many routes as the command line says.
final class ItemsModule: HTTPModule {
    static let routeCount = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1 : 1

    static var httpPath: String { "/items" }

    init() {}

    func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        addItemRoutes(to: routes, count: Self.routeCount)
    }
}

func announce(_ port: Int?) {
    FileHandle.standardOutput.write(Data("listening \(port ?? 0)\n".utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let mode = Optional(arguments[1]), ["direct", "mounted", "dlopen"].contains(mode) else {
    FileHandle.standardError.write(Data("usage: http-bench-server direct|mounted ROUTES | dlopen PATH\n".utf8))
    exit(64)
}

if mode == "dlopen" {
    let started = ContinuousClock.now
    guard dlopen(arguments[2], RTLD_NOW | RTLD_LOCAL) != nil else {
        FileHandle.standardError.write(Data("http-bench-server: \(String(cString: dlerror()))\n".utf8))
        exit(1)
    }
    let elapsed = ContinuousClock.now - started
    print(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
    exit(0)
}

guard let routes = Int(arguments[2]), routes > 0 else {
    FileHandle.standardError.write(Data("http-bench-server: ROUTES is a positive number\n".utf8))
    exit(64)
}
let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0))
if mode == "direct" {
    let router = Hummingbird.Router()
    addItemRoutes(to: router.group("/items"), count: routes)
    let app = Application(router: router, configuration: configuration, onServerRunning: { announce($0.localAddress?.port) })
    try await app.runService()
} else {
    let host = HiveHost(hive: .shared)
    try host.hive.modules.register(ItemsModule.self)
    let http = HiveHTTP(host: host)
    let router = Hummingbird.Router()
    router.add(middleware: http)
    var app = Application(router: router, configuration: configuration, onServerRunning: { announce($0.localAddress?.port) })
    app.addHive(http)
    try await app.runService()
}
