import BeeHive
import ShopInterfaces

/// The default mode: everything the app can do, in order, then a clean exit.
extension ShopRuntime {
    func tour() async throws {
        try registerModules()
        describeModules(title: "Modules: registered in code, from modules.plist, and by C annotation")
        try addPluginFolders()
        try await launch()
        try loadPlugin()
        describeModules(title: "Modules after the plugin")
        showServices()
        Story.chapter("Routes: C-annotated, registered in code, and from the plugin")
        for route in hive.router.allRoutes { Story.note("  \(route.pattern.text)") }
        for url in [
            "shop://home", "shop://product/42", "shop://product/42/reviews", "shop://cart/add?item=42",
            "shop://cart/add?item=7&quantity=2",
        ] {
            open(url)
        }
        showFirstUses()
        Story.chapter("Checkout: the login guard redirects, then orderPlaced (custom event 1001) reaches three modules")
        open("shop://cart/checkout")
        open("shop://nowhere")
        try shutDown()
        try printProfile()
    }

    /// Opens a URL the way the app does (`Hive.open`: the router, then every module's openURL hook) and says
    /// how routing ended.
    func open(_ url: String) {
        Story.note("\n-> open \(url)")
        do {
            switch try tellingFirstUseLoads({ () throws(HiveError) in try hive.open(url) }) {
            case .handled(let match):
                Story.note("   handled by route \(match.parameters.pattern ?? "?")")
            case .unmatched:
                Story.note("   no route handles it")
            case .rejected(let rejection):
                Story.note("   rejected: \(rejection.reason)")
            }
        } catch {
            Story.note("   failed: \(error)")
        }
    }

    /// The plugins of the folders load one at a time, each when what it declares is first asked for.
    private func showFirstUses() {
        Story.chapter("First use: each plugin of the folder loads when something it declares is first asked for")
        let url = "shop://wishlist/add?item=7"
        let canPerform = hive.mediator.canPerform(target: "Recommendations", action: "forProduct")
        Story.note("answered from the index, nothing loaded: canRoute(\(url)) \(hive.router.canRoute(url)), canPerform(Recommendations.forProduct) \(canPerform)")
        open(url)
        open("shop://wishlist/add?item=12")
        perform(target: "Recommendations", action: "forProduct", parameters: ["id": "42"])
        perform(target: "Recommendations", action: "forProduct", parameters: ["id": "7"])
        Story.note("plugins loaded on first use: \(hive.pluginsLoadedOnFirstUse.count)")
    }

    private func showServices() {
        Story.chapter("Services: registered in code and by C annotation, used across modules")
        for registration in hive.services.registrations {
            Story.note("  \(registration.service) -> \(registration.implementation) [\(registration.scope.rawValue)] from \(Self.describe(registration.source))")
        }
        let problems = hive.validateServices()
        Story.note(problems.isEmpty ? "every service resolves" : "\(problems.count) services do not resolve")
        if let first = hive.services.createService(AccountService.self),
            let second = hive.services.createService(AccountService.self)
        {
            Story.note("AccountService is a singleton: \(first === second ? "one instance" : "two instances") for every module")
        }
    }

    static func describe(_ source: ServiceSource) -> String {
        switch source {
        case .code(let fileID, let line): "code (\(fileID):\(line))"
        case .configuration(let path, let entry): "configuration \(path) entry \(entry)"
        case .annotation(let origin): "annotation in \(origin.objectPath.split(separator: "/").last ?? "") [\(origin.section)+\(origin.offset)]"
        }
    }
}
