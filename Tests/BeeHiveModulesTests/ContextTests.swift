@_spi(BeeHiveInternals) import BeeHiveModules
import Testing

final class ContextProbeModule: Module {
    func reload(_ context: ModuleContext) throws {
        let line = "\(context.environment) \(context.launchOptions.arguments.joined(separator: ",")) \(context.launchOptions.environment["SHOP_REGION"] ?? "-")"
        context.config[Recorder.key]?.append(line)
    }
}

@Suite struct ContextTests {
    @Test func environmentComesFromTheVariable() throws {
        let (manager, recorder) = makeManager(environment: ["BEEHIVE_ENV": "production", "SHOP_REGION": "eu"])
        #expect(manager.environment == .prod)
        try manager.register(ContextProbeModule.self)
        try manager.start()
        try manager.trigger(.reload)
        #expect(recorder.all == ["prod test eu"])
        manager.environment = .stage
        try manager.trigger(.reload)
        #expect(recorder.all.last == "stage test eu")
    }

    @Test func environmentSetInCodeWins() {
        let manager = ModuleManager(
            configuration: .init(environment: .test, launchOptions: LaunchOptions(arguments: [], environment: ["BEEHIVE_ENV": "prod"])))
        #expect(manager.environment == .test)
    }

    @Test func unknownEnvironmentIsReportedAndDevIsUsed() throws {
        let (manager, _) = makeManager(environment: ["BEEHIVE_ENV": "moon"])
        #expect(manager.environment == .dev)
        #expect(manager.diagnostics.contains { $0.description.contains("BEEHIVE_ENV='moon'") })
        #expect { try ModuleEnvironment(parsing: "moon") } throws: { "\($0)".contains("use dev, test, stage or prod") }
        #expect(try ModuleEnvironment(parsing: "Staging") == .stage)
        #expect(try ModuleEnvironment.fromVariable(in: [:]) == nil)
    }

    @Test func configStoreIsTyped() {
        let store = ConfigStore(["shop.timeout": 2.5])
        let timeout = ConfigKey<Double>("shop.timeout")
        let timeoutAsText = ConfigKey<String>("shop.timeout")
        let retries = ConfigKey<Int>("shop.retries")
        #expect(store[timeout] == 2.5)
        #expect(store[timeoutAsText] == nil)
        #expect(store.value(for: retries, default: 3) == 3)
        store[retries] = 5
        #expect(store[retries] == 5)
        store.merge(["shop.name": "BeeShop"])
        #expect(store.keys == ["shop.name", "shop.retries", "shop.timeout"])
        store.removeValue(for: retries)
        #expect(store[retries] == nil)
        store.removeAll()
        #expect(store.keys.isEmpty)
    }

    @Test func contextCarriesTheCustomEventAndParameter() throws {
        let (manager, recorder) = makeManager()
        try manager.register(CheckoutListenerModule.self)
        try manager.start()
        try manager.trigger(ShopEvents.checkout, customParameter: 42)
        #expect(recorder.all.last == "CheckoutListenerModule.1001.none")
        try manager.trigger(ShopEvents.checkout, customParameter: "A-1")
        #expect(recorder.all.last == "CheckoutListenerModule.1001.A-1")
    }
}
