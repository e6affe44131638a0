import BeeHive
import Logging

/// What the command line asked for.
struct DemoOptions {
    enum Mode: Equatable {
        /// The guided tour: launch, plugin, services, routes, custom event, shutdown, profile.
        case tour
        case open(String)
        case signal(ProcessSignal)
        case list
        case serve
        case graph(GraphFormat)
    }

    enum GraphFormat: String {
        case dot, mermaid
    }

    var mode = Mode.tour
    var pluginPath: String?
    var tracePath: String?
    var logLevel = Logger.Level.info

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        usage: ShopApp [MODE] [OPTIONS]

        A modular shop built on BeeHive for Linux. Without a mode it takes the tour: discovers and registers
        modules, indexes its plugins folders without loading them, launches the modules (awaiting an async init),
        loads the Reviews plugin, uses services across modules, opens URLs (one redirected by a login guard), loads
        each plugin of the folders on first use, places an order (a custom event), shuts down and prints the time
        profile of every module hook.

        Modes:
          --open URL       launch, load the plugin, open URL (e.g. 'shop://cart/add?item=42'), shut down
          --signal NAME    launch, then send this process HUP (reload), USR1, USR2 (user signal events),
                           TERM or INT (willTerminate, then tearDown in reverse order)
          --list           what discovery found, from inside the process: annotated objects, records,
                           modules, services, routes and diagnostics (nothing is started)
          --serve          run as a long-running service until SIGTERM or SIGINT; SIGHUP, SIGUSR1 and
                           SIGUSR2 reach the modules meanwhile
          --graph FORMAT   launch, load the plugin, and print what the running hive has registered as a
                           graph, FORMAT dot (Graphviz) or mermaid, alone on standard output (the story
                           goes to standard error): scripts/demo --graph dot | dot -Tsvg > shop.svg

        Options:
          --plugin PATH    the Reviews plugin to load (default: libReviews.so next to the executable)
          --trace FILE     also write the time profile as Chrome trace JSON (open it in ui.perfetto.dev)
          --log-level L    trace, debug, info (default), notice, warning, error or critical; logs go to stderr
          -h, --help       show this help

        Plugins folders: shop-plugins next to the executable (libWishlist.so, libRecommendations.so), then those
        listed in BEEHIVE_PLUGIN_PATH (colon-separated; each must be writable by its owner only).

        Routes: shop://home, shop://product/ID, shop://product/ID/reviews (plugin), shop://cart,
        shop://cart/add?item=ID[&quantity=N], shop://cart/checkout (login guard), shop://login?user=NAME,
        shop://wishlist/add?item=ID (plugin of the folder)
        Products: 7, 12, 42, 99.
        """

    /// Reads the arguments after the program name; nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions? {
        var options = DemoOptions()
        var modes: [Mode] = []
        var remaining = arguments[...]
        func value(after option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": return nil
            case "--open": modes.append(.open(try value(after: argument)))
            case "--signal": modes.append(.signal(try signal(named: try value(after: argument))))
            case "--list": modes.append(.list)
            case "--serve": modes.append(.serve)
            case "--graph":
                let name = try value(after: argument)
                guard let format = GraphFormat(rawValue: name) else {
                    throw UsageError(description: "unknown graph format '\(name)'; use dot or mermaid")
                }
                modes.append(.graph(format))
            case "--plugin": options.pluginPath = try value(after: argument)
            case "--trace": options.tracePath = try value(after: argument)
            case "--log-level":
                let name = try value(after: argument)
                guard let level = Logger.Level(rawValue: name) else {
                    throw UsageError(description: "unknown log level '\(name)'")
                }
                options.logLevel = level
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        guard modes.count <= 1 else { throw UsageError(description: "choose one mode of --open, --signal, --list, --serve, --graph") }
        options.mode = modes.first ?? .tour
        return options
    }

    private static func signal(named name: String) throws(UsageError) -> ProcessSignal {
        switch name.uppercased() {
        case "HUP", "SIGHUP": .hangUp
        case "USR1", "SIGUSR1": .user1
        case "USR2", "SIGUSR2": .user2
        case "TERM", "SIGTERM": .terminate
        case "INT", "SIGINT": .interrupt
        default: throw UsageError(description: "unknown signal '\(name)'; use HUP, USR1, USR2, TERM or INT")
        }
    }
}
