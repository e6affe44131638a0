import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scripts/demo`, the README's first command: it builds Examples/ShopApp (a package depending on this one by
/// path, with a plugin) and runs it. Each test runs the script in one mode and checks the story it prints.
@Suite(.serialized, .timeLimit(.minutes(30)))
struct DemoTests {
    static let script = FixtureBuilder.repositoryRoot.appending(path: "scripts/demo")
    /// Where `scripts/demo` builds the app (a debug build).
    static let app = FixtureBuilder.repositoryRoot.appending(path: "Examples/ShopApp/.build/debug/ShopApp")

    /// Runs `scripts/demo ARGUMENTS`, which builds the app first (a no-op once built).
    static func demo(_ arguments: String...) throws -> FixtureBuilder.Output {
        try FixtureBuilder.withoutConcurrentBuilds {
            try FixtureBuilder.run(script, arguments)
        }
    }

    static func succeeded(_ output: FixtureBuilder.Output, _ arguments: String...) -> Bool {
        #expect(output.status == 0, "scripts/demo \(arguments.joined(separator: " ")) failed:\n\(output.output)")
        return output.status == 0
    }

    @Test func tourTellsTheWholeStoryAndExitsCleanly() throws {
        let output = try Self.demo()
        guard Self.succeeded(output) else { return }
        let story = Story(output.standardOutput)
        // Registered three ways, ordered together: level, then priority.
        story.expectLines(inOrder: [
            "== Modules: registered in code, from modules.plist, and by C annotation",
            "Account.AccountModule  basic, priority 100",
            "Catalog.CatalogModule  normal, priority 50, async",
            "Cart.CartModule        normal, priority 10",
            "Home.HomeModule        normal, priority 0",
        ])
        story.expectLine("Account.AccountModule", containing: "annotation in ShopApp [beehive_mods+0]")
        story.expectLine("Catalog.CatalogModule", containing: "configuration file modules.plist (moduleClasses[0])")
        story.expectLine("Cart.CartModule", containing: "configuration file modules.plist (moduleClasses[1])")
        story.expectLine("Home.HomeModule", containing: "code")
        // The lifecycle: every setUp in order, then inits; Cart waits for Catalog's async init; splash last.
        story.expectLines(inOrder: [
            "[Account] setUp", "[Catalog] setUp", "[Cart] setUp", "[Home] setUp", "[Account] init",
            "[Catalog] init (async): 4 products loaded", "[Cart] init: ran after Catalog's async init (4 products",
            "[Account] splash", "[Catalog] splash", "[Cart] splash",
            "[Home] splash: home screen ready: 4 products", "launched in",
        ])
        // The plugins folder is indexed before the launch, and none of its plugins is loaded.
        story.expectLines(inOrder: [
            "== Plugins folders: every plugin known from its ELF records, none loaded", "/shop-plugins: 2 plugins",
            "libRecommendations.so declares target Recommendations", "libWishlist.so declares route /wishlist/add",
            "plugins loaded: none; each loads on first use", "== Launch",
        ])
        // The plugin's records are read once it is loaded, and its module catches up.
        story.expectLines(inOrder: [
            "== Plugin: loading libReviews.so", "[Reviews] setUp: plugin module", "catching up after the launch",
            "[Reviews] init: reviews for 4 products", "[Reviews] splash", "libReviews.so: 3 new records",
            "module: beehive:1|module|Reviews.ReviewsModule",
            "service: beehive:1|service|ShopInterfaces.ReviewService|Reviews.ReviewBoard",
            "route: beehive:1|route|/product/:id/reviews|Reviews.ReviewsPage",
        ])
        story.expectLines(inOrder: [
            "ShopInterfaces.AccountService -> Account.AccountStore [singleton] from annotation in ShopApp",
            "ShopInterfaces.CartService -> factory [singleton] from code",
            "ShopInterfaces.CatalogService -> factory [singleton] from code",
            "ShopInterfaces.ReviewService -> Reviews.ReviewBoard [transient] from annotation in libReviews.so",
            "every service resolves", "AccountService is a singleton: one instance",
        ])
        // Routes from a C annotation, from code and from the plugin, using services across modules.
        story.expectLines(inOrder: [
            "-> open shop://home", "[Home] route /home (code)", "handled by route /home",
            "-> open shop://product/42",
            "[Catalog] route /product/:id (C annotation): #42 Hive tool ($19.99), rated 4.5 stars by the Reviews plugin",
            "[Home] openURL hook: shop://product/42", "handled by route /product/:id",
            "-> open shop://product/42/reviews", "[Reviews] route /product/:id/reviews (plugin): Hive tool: 2 reviews",
            "-> open shop://cart/add?item=42", "[Cart] route /cart/add (code): 1 x Hive tool; cart total $19.99",
            "-> open shop://cart/add?item=7&quantity=2", "2 x Honey jar; cart total $36.99",
        ])
        // Each plugin of the folder loads at its first use, told with what was asked for; later uses load nothing.
        story.expectLines(inOrder: [
            "== First use", "canRoute(shop://wishlist/add?item=7) true, canPerform(Recommendations.forProduct) true",
            "-> open shop://wishlist/add?item=7", "[Wishlist] route /wishlist/add (plugin from the folder): Honey jar saved for later",
            "first use of route /wishlist/add loaded plugin libWishlist.so", "handled by route /wishlist/add",
            "-> open shop://wishlist/add?item=12", "handled by route /wishlist/add",
            "-> perform Recommendations.forProduct", "[Recommendations] target Recommendations.forProduct (plugin from the folder)",
            "first use of target Recommendations loaded plugin libRecommendations.so", "returned [",
            "-> perform Recommendations.forProduct", "returned [", "plugins loaded on first use: 2",
        ])
        #expect(story.lines.filter { $0.contains("loaded plugin libWishlist.so") }.count == 1, "loaded once")
        #expect(story.lines.filter { $0.contains("loaded plugin libRecommendations.so") }.count == 1, "loaded once")
        // The login guard redirects, the login page sends the shopper on, the order is a custom event.
        story.expectLines(inOrder: [
            "-> open shop://cart/checkout",
            "[Cart] login guard (interceptor): not signed in, redirecting shop://cart/checkout -> shop://login?next=shop%3A%2F%2Fcart%2Fcheckout",
            "[Account] route /login (C annotation): signed in as demo",
            "[Cart] route /cart/checkout (code): placed order #1 for demo: 3 items, $36.99",
            "[Account] custom(1001) orderPlaced: +36 points for demo, balance 36",
            "[Home] custom(1001) orderPlaced: thanks demo",
            "[Reviews] custom(1001) orderPlaced: will ask demo to review Hive tool, Honey jar",
            "handled by route /login",
            "-> open shop://nowhere", "no route handles it",
        ])
        // Shutdown: willTerminate in order, tearDown in reverse order.
        story.expectLines(inOrder: [
            "== Shutdown", "[Account] willTerminate", "[Cart] willTerminate", "[Reviews] tearDown", "[Home] tearDown",
            "[Cart] tearDown", "[Catalog] tearDown", "[Account] tearDown",
        ])
        story.expectProfile()
        #expect(output.standardError.contains("loaded plugin"), "the app logs through swift-log to stderr")
    }

    @Test func opensAURL() throws {
        let trace = FileManager.default.temporaryDirectory.appending(path: "beehive-demo-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: trace) }
        let output = try Self.demo("--open", "shop://cart/add?item=42", "--trace", trace.path)
        guard Self.succeeded(output) else { return }
        let story = Story(output.standardOutput)
        story.expectLines(inOrder: [
            "[Home] splash", "[Reviews] splash", "== Opening shop://cart/add?item=42",
            "[Cart] route /cart/add (code): 1 x Hive tool; cart total $19.99",
            "[Home] openURL hook: shop://cart/add?item=42", "handled by route /cart/add", "[Account] tearDown",
        ])
        story.expectProfile()
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: trace)) as? [String: Any]
        let events = json?["traceEvents"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["name"] as? String == "Catalog.CatalogModule" && $0["cat"] as? String == "init" })
    }

    @Test func opensAPluginRouteAndReportsUnmatchedURLs() throws {
        let reviews = try Self.demo("--open", "shop://product/7/reviews")
        if Self.succeeded(reviews, "--open", "shop://product/7/reviews") {
            Story(reviews.standardOutput).expectLines(inOrder: [
                "[Reviews] route /product/:id/reviews (plugin): Honey jar: 1 reviews", "handled by route /product/:id/reviews",
            ])
        }
        let unknown = try Self.demo("--open", "shop://product/1000")
        if Self.succeeded(unknown, "--open", "shop://product/1000") {
            Story(unknown.standardOutput).expectLines(inOrder: ["-> open shop://product/1000", "no route handles it"])
        }
    }

    @Test(arguments: [
        ("HUP", ["received SIGHUP"], ["[Account] reload", "[Catalog] reload", "SIGHUP handled: every module got reload",
                                      "[Account] willTerminate: signing", "[Reviews] tearDown", "[Account] tearDown"]),
        ("USR1", ["received SIGUSR1"], ["[Account] userSignal1: signed in: nobody", "[Home] userSignal1: 4 products",
                                        "SIGUSR1 handled", "[Account] tearDown"]),
        ("USR2", ["received SIGUSR2"], ["[Home] userSignal2", "SIGUSR2 handled", "[Account] tearDown"]),
        ("TERM", ["received SIGTERM"], ["[Account] willTerminate after SIGTERM", "[Cart] willTerminate", "[Reviews] tearDown",
                                        "[Home] tearDown", "[Cart] tearDown", "[Catalog] tearDown", "[Account] tearDown",
                                        "SIGTERM handled: willTerminate, then tearDown"]),
        ("INT", ["received SIGINT"], ["[Account] willTerminate after SIGINT", "[Account] tearDown", "SIGINT handled"]),
    ])
    func signalsBecomeModuleEvents(signal: String, logged: [String], lines: [String]) throws {
        let output = try Self.demo("--signal", signal)
        guard Self.succeeded(output, "--signal", signal) else { return }
        let story = Story(output.standardOutput)
        story.expectLines(inOrder: ["[Reviews] splash", "== Signal: kill(getpid(), SIG\(signal))"] + lines)
        story.expectProfile()
        for line in logged { #expect(output.standardError.contains(line)) }
    }

    @Test func listsWhatDiscoveryFoundWithoutStarting() throws {
        let output = try Self.demo("--list")
        guard Self.succeeded(output, "--list") else { return }
        let story = Story(output.standardOutput)
        story.expectLines(inOrder: [
            "== Annotated objects", "/ShopApp  build-id ", "4 records", "/libReviews.so  build-id ", "3 records",
            "== Records", "OBJECT         SECTION           OFFSET  KIND     RECORD",
            "ShopApp        beehive_mods      0       module   beehive:1|module|Account.AccountModule|level=basic|priority=100|async=0",
            "libReviews.so  beehive_mods      0       module   beehive:1|module|Reviews.ReviewsModule",
            "ShopApp        beehive_services  0       service  beehive:1|service|ShopInterfaces.AccountService|Account.AccountStore|scope=singleton|name=",
            "libReviews.so  beehive_services  0       service  beehive:1|service|ShopInterfaces.ReviewService|Reviews.ReviewBoard",
            "ShopApp        beehive_routes    0       route    beehive:1|route|/login|Account.LoginPage",
            "ShopApp        beehive_routes    41      route    beehive:1|route|/product/:id|Catalog.ProductPage",
            "libReviews.so  beehive_routes    0       route    beehive:1|route|/product/:id/reviews|Reviews.ReviewsPage",
            "== Modules, in launch order", "Account.AccountModule", "Catalog.CatalogModule", "Cart.CartModule",
            "Home.HomeModule", "Reviews.ReviewsModule", "ShopApp.AppModule",
            "== Services", "ShopInterfaces.AccountService -> Account.AccountStore [singleton, active]",
            "ShopInterfaces.ReviewService -> Reviews.ReviewBoard [transient, active]",
            "== Routes", "/login", "/product/:id", "/product/:id/reviews",
            "== Diagnostics", "none",
        ])
        #expect(!story.lines.contains { $0.contains("] setUp") }, "--list starts no module")
    }

    /// `--graph`: the running hive's graph alone on standard output, with what the modules registered in code,
    /// the dependencies their types declare and the plugin's registrations; the story goes to standard error.
    @Test func printsTheRunningGraph() throws {
        let dot = try Self.demo("--graph", "dot")
        guard Self.succeeded(dot, "--graph", "dot") else { return }
        #expect(dot.standardOutput.hasPrefix("digraph BeeHive {\n"))
        #expect(dot.standardError.contains("[Account] setUp") && dot.standardError.contains("[Account] tearDown"))
        let layout = try SystemTools.graphvizLayout(of: dot.standardOutput)
        // 7 modules, 5 services, 7 routes and 12 handlers; 6 order edges, 2 "needs" (declared in code), 12 others.
        #expect(layout.nodes == 31 && layout.edges == 20, "\(layout)")

        let mermaid = try FixtureBuilder.run(Self.app, ["--graph", "mermaid"])
        guard Self.succeeded(mermaid, "--graph", "mermaid") else { return }
        let lines = mermaid.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart LR")
        Story(mermaid.standardOutput).expectLines(inOrder: [
            #"m0["1. Account.AccountModule<br/>basic, priority 100"]"#, #"["2. Catalog.CatalogModule<br/>normal, priority 50, async"]"#,
            #"["3. Cart.CartModule<br/>normal, priority 10"]"#, "Reviews.ReviewsModule", "ShopApp.AppModule",
            "m0 -.-> m1", "m2 -->|needs| m1", #"subgraph services["Services"]"#, "ShopInterfaces.ReviewService",
            #"subgraph routes["Routes"]"#, "end",
        ])
        #expect(lines.contains { $0.hasSuffix(#"[/"/home"/]"#) } && lines.contains { $0.hasSuffix(#"[/"/product/:id/reviews"/]"#) })
        #expect(lines.contains { $0.contains(#"["closure at Home/HomeModule.swift:10"]"#) }, "a route added in code")
        #expect(lines.contains { $0.contains(#"["factory at Catalog/CatalogModule.swift:15"]"#) }, "a service registered in code")
        #expect(lines.contains { $0.contains(#"["async factory at Home/RecommendationsModule.swift:18"]"#) }, "an async factory")
        #expect(lines.contains { $0.contains(#"["Reviews.ReviewsPage"]"#) }, "the plugin's route handler")
        #expect(!lines.contains { $0.contains("] setUp") }, "the story stays off standard output")
    }

    /// A folder listed in BEEHIVE_PLUGIN_PATH is indexed with the app's own, and its plugin loads on first use:
    /// a C plugin declaring a route whose handler is the app's own Catalog page.
    @Test func honoursBEEHIVE_PLUGIN_PATH() throws {
        guard Self.succeeded(try Self.demo("--help"), "--help") else { return }
        let folder = try FixtureHost.temporaryDirectory("demo-plugin-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o755)
        let plugin = folder.appending(path: "libgift.so")
        try FileManager.default.copyItem(
            at: try SystemTools.cPlugin("deferred.c", defines: ["DEFERRED_ROUTE_PATTERN=\"/gift/:id\"", "DEFERRED_ROUTE_TYPE=Catalog.ProductPage"]),
            to: plugin)
        chmod(plugin.path, 0o644)
        let output = try FixtureBuilder.run(Self.app, ["--open", "shop://gift/42"], environment: ["BEEHIVE_PLUGIN_PATH": folder.path])
        guard Self.succeeded(output, "--open", "shop://gift/42") else { return }
        Story(output.standardOutput).expectLines(inOrder: [
            "/shop-plugins: 2 plugins", "\(folder.lastPathComponent): 1 plugins", "libgift.so declares route /gift/:id",
            "plugins loaded: none", "== Opening shop://gift/42", "[Catalog] route /product/:id (C annotation): #42 Hive tool",
            "first use of route /gift/:id loaded plugin libgift.so", "handled by route /gift/:id",
        ])
    }

    @Test func helpListsWhatTheDemoCanDo() throws {
        let help = try Self.demo("--help")
        guard Self.succeeded(help, "--help") else { return }
        for mode in ["scripts/demo builds Examples/ShopApp", "--open URL", "--signal NAME", "--list", "--serve", "--graph FORMAT", "--trace FILE"] {
            #expect(help.standardOutput.contains(mode), "--help mentions \(mode)")
        }
    }

    @Test func serveRunsUntilSIGTERM() throws {
        // Builds the app if no other test has.
        guard Self.succeeded(try Self.demo("--help"), "--help") else { return }
        let server = try BackgroundProcess(Self.app, ["--serve"])
        defer { server.stop() }
        try server.waitForOutput("== Serving as process")
        // The host arms its signal sources before the first hook and the ready line comes after; checked anyway.
        try server.waitForCaughtSignals([SIGHUP, SIGTERM])
        kill(server.process.processIdentifier, SIGHUP)
        try server.waitForOutput("[Catalog] reload")
        kill(server.process.processIdentifier, SIGTERM)
        let status = try server.waitForExit()
        #expect(status == 0)
        Story(server.standardOutput).expectLines(inOrder: [
            "[Account] reload", "[Catalog] reload", "[Account] willTerminate after SIGTERM", "[Reviews] tearDown",
            "[Account] tearDown", "terminated: willTerminate, then tearDown in reverse order", "== Time profile",
        ])
    }

    /// SIGTERM at several points of the launch: the process exits cleanly and every module that was set up
    /// is torn down, or the signal came before the process armed anything and no module was set up.
    @Test(arguments: [0.0, 0.05, 0.1, 0.2, 0.35, 0.6, 1.0])
    func sigtermDuringLaunchTearsDownWhatWasSetUp(delay: Double) throws {
        guard Self.succeeded(try Self.demo("--help"), "--help") else { return }
        let server = try BackgroundProcess(Self.app, ["--serve"])
        defer { server.stop() }
        Thread.sleep(forTimeInterval: delay)
        kill(server.process.processIdentifier, SIGTERM)
        let status = try server.waitForExit()
        let lines = server.standardOutput.split(separator: "\n")
        func modules(_ hook: String) -> Set<String> {
            Set(lines.compactMap { line in
                guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                      line[line.index(after: close)...].hasPrefix(" \(hook)") else { return nil }
                return String(line[line.index(after: line.startIndex)..<close])
            })
        }
        let setUp = modules("setUp")
        guard !setUp.isEmpty else { return }
        #expect(status == 0, "exited \(status) after SIGTERM at \(delay) s\n\(server.standardError)")
        #expect(modules("tearDown") == setUp, "SIGTERM at \(delay) s")
        #expect(modules("willTerminate").isSubset(of: setUp))
    }

    @Test func refusesUnknownArguments() throws {
        let output = try Self.demo("--fly")
        #expect(output.status == 2)
        #expect(output.standardError.contains("unknown argument '--fly'"))
        #expect(output.standardError.contains("usage: ShopApp"))
    }
}

/// The lines the demo printed, with checks that name what is missing.
private struct Story {
    let lines: [String]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Each fragment appears in a line after the line of the previous one (or in the same line, further on).
    func expectLines(inOrder fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var line = 0
        var column = lines.first.map { $0.startIndex }
        for fragment in fragments {
            var found = false
            while line < lines.count {
                let text = lines[line]
                let start = column ?? text.startIndex
                if let range = text.range(of: fragment, range: start..<text.endIndex) {
                    column = range.upperBound
                    found = true
                    break
                }
                line += 1
                column = nil
            }
            guard found else {
                Issue.record(
                    "missing, or out of order: \"\(fragment)\"\nafter: \(fragments.prefix { $0 != fragment })\n--- output:\n\(lines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// The line that mentions `subject` also says `detail`.
    func expectLine(_ subject: String, containing detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            lines.contains { $0.contains(subject) && $0.contains(detail) }, "no line with \"\(subject)\" says \"\(detail)\"",
            sourceLocation: sourceLocation)
    }

    /// The time profile closes the story: one row per module and hook, the async init among them.
    func expectProfile(sourceLocation: SourceLocation = #_sourceLocation) {
        expectLines(
            inOrder: ["== Time profile", "Module", "Event", "Calls", "Total ms", "Max ms"], sourceLocation: sourceLocation)
        // The columns are as wide as the longest module name: look for the row, not its spacing.
        #expect(
            lines.contains { $0.split(separator: " ").prefix(2) == ["Catalog.CatalogModule", "init"] },
            "no profile row for Catalog's init", sourceLocation: sourceLocation)
    }
}

/// A process left running while a test talks to it with signals; output goes to files.
private final class BackgroundProcess {
    let process = Process()
    private let outputFile: URL
    private let errorFile: URL

    init(_ executable: URL, _ arguments: [String]) throws {
        let folder = FileManager.default.temporaryDirectory
        outputFile = folder.appending(path: "beehive-serve-\(UUID().uuidString).out")
        errorFile = folder.appending(path: "beehive-serve-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var standardOutput: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    var standardError: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// Kills the process if it still runs and removes its output files.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }

    func waitForOutput(_ text: String) throws {
        try wait(for: "\"\(text)\" on standard output") { self.standardOutput.contains(text) }
    }

    /// Waits until the process has handlers installed for `signals` (its /proc status shows them caught).
    func waitForCaughtSignals(_ signals: [Int32]) throws {
        let status = "/proc/\(process.processIdentifier)/status"
        try wait(for: "handlers for signals \(signals)") {
            guard let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return signals.allSatisfy { mask & (1 << UInt64($0 - 1)) != 0 }
        }
    }

    func waitForExit() throws -> Int32 {
        try wait(for: "the process to exit", untilExit: true) { !self.process.isRunning }
        return process.terminationStatus
    }

    /// Polls `condition`; the deadline only guards against a hang, it does not time anything. Unless waiting
    /// for the exit, a process that exits first fails the wait.
    private func wait(for what: String, untilExit: Bool = false, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline, untilExit || process.isRunning else {
                throw FixtureBuilder.Failure(
                    description: "gave up waiting for \(what)\n--- stdout:\n\(standardOutput)\n--- stderr:\n\(standardError)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
