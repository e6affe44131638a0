import BeeHive
import Foundation
import Home
import Logging
import ShopInterfaces

/// The app's hive and host, and the steps every mode takes: register the modules, launch them, load the
/// plugin, shut down, print the profile.
struct ShopRuntime {
    let hive: Hive
    let host: HiveHost
    let app = AppModule()
    let options: DemoOptions
    let logger: Logger

    /// Makes the app's hive with the app's loggers and the time profiler on, as `Hive.shared`: modules, route
    /// handlers and the plugin reach it there (the plugin links the same BeeHive library, so it sees the same
    /// hive).
    init(options: DemoOptions) throws {
        self.options = options
        logger = Logger(label: "shop")
        try Hive.bootstrap {
            Hive(
                modules: ModuleManager(
                    configuration: .init(watchdogThreshold: .seconds(1), isProfilingEnabled: true),
                    logger: Logger(label: "beehive.modules")),
                services: ServiceManager(logger: Logger(label: "beehive.services")),
                router: Router(logger: Logger(label: "beehive.router")), logger: Logger(label: "beehive"))
        }
        hive = Hive.shared
        host = HiveHost(hive: hive, logger: Logger(label: "beehive.host"))
    }

    /// Registers the modules every way: in code, from the configuration file, and by annotation (what
    /// discovery found in the loaded objects' ELF sections before `main`).
    func registerModules() throws {
        try hive.modules.register(HomeModule.self)
        try hive.modules.register(app, priority: -100)
        guard let configuration = Bundle.module.path(forResource: "modules", ofType: "plist") else {
            throw ShopError("modules.plist is missing from the app's resources")
        }
        try hive.modules.registerModules(fromConfigurationFileAt: configuration)
        let diagnostics = hive.refresh()
        for diagnostic in diagnostics { Story.note("  ! \(diagnostic)") }
    }

    /// Prints the modules in the order they start, with where each registration came from.
    func describeModules(title: String) {
        Story.chapter(title)
        let modules = hive.modules.modules
        let width = modules.map(\.name.count).max() ?? 0
        for module in modules {
            let padding = String(repeating: " ", count: width - module.name.count)
            let attributes = "\(module.level.rawValue), priority \(module.priority)\(module.isAsync ? ", async" : "")"
            Story.note("  \(module.name)\(padding)  \(attributes.padding(toLength: 28, withPad: " ", startingAt: 0))\(Self.describe(module.source))")
        }
    }

    /// Launches the modules: setUp, init, splash, awaiting asynchronous inits.
    func launch() async throws {
        Story.chapter("Launch: setUp in order, init (Catalog's is async), splash once every init is done")
        let started = ContinuousClock.now
        try await host.start()
        Story.note("launched in \(Self.milliseconds(ContinuousClock.now - started)) ms, the async init awaited")
    }

    /// Loads the Reviews plugin: its annotations are read from the library, and its module catches up.
    func loadPlugin() throws {
        let path = options.pluginPath ?? Self.executableDirectory.appending(path: "libReviews.so").path
        Story.chapter("Plugin: loading \(URL(fileURLWithPath: path).lastPathComponent)")
        let before = hive.registry.records.count
        let diagnostics = try hive.loadPlugin(atPath: path)
        let added = hive.registry.records.filter { $0.origin.objectPath == path }
        Story.note("loaded \(path): \(hive.registry.records.count - before) new records")
        for record in added { Story.note("  \(record.kind.rawValue): \(record.text)") }
        for diagnostic in diagnostics { Story.note("  ! \(diagnostic)") }
    }

    /// willTerminate, then tearDown in reverse order.
    func shutDown() throws {
        Story.chapter("Shutdown: willTerminate, then tearDown in reverse order")
        try host.stop()
    }

    /// The time each module spent in each hook, and the Chrome trace when asked for.
    func printProfile() throws {
        Story.chapter("Time profile: every hook of every module, launch (async init included) to tearDown")
        Story.note(hive.modules.profiler.table(), terminator: "")
        if let tracePath = options.tracePath {
            try hive.modules.profiler.writeChromeTrace(toPath: tracePath)
            Story.note("Chrome trace written to \(tracePath)")
        }
    }

    static func describe(_ source: ModuleSource) -> String {
        switch source {
        case .code: "code"
        case .configurationFile(let path, let entry):
            "configuration file \(URL(fileURLWithPath: path).lastPathComponent) (moduleClasses[\(entry)])"
        case .annotation(let origin):
            "annotation in \(URL(fileURLWithPath: origin.objectPath).lastPathComponent) [\(origin.section)+\(origin.offset)]"
        }
    }

    static var executableDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// A problem of the demo itself, such as a missing resource.
struct ShopError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
