import BeeHive
import Foundation
import ShopInterfaces

/// The products on sale. Listed in the app's modules.plist with `moduleAsync`: its init loads the catalog
/// (about 300 ms) on the manager's queue, off the startup thread, and the app awaits it with the launch.
public final class CatalogModule: Module {
    private let store = CatalogStore()

    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        let store = self.store
        // A singleton registered in code: every lookup gets this module's store.
        Hive.shared.services.register(CatalogService.self, scope: .singleton) { _, _ in store }
        Story.tell("Catalog", "setUp: normal level, priority 50, async init (configuration file); registers CatalogService")
    }

    public func initialize(_ context: ModuleContext) throws {
        Story.tell("Catalog", "init (async): loading the catalog...")
        let started = ContinuousClock.now
        store.load()
        let elapsed = ContinuousClock.now - started
        Story.tell("Catalog", "init (async): \(store.products.count) products loaded in \(elapsed.milliseconds) ms")
    }

    public func splash(_ context: ModuleContext) throws {
        Story.tell("Catalog", "splash")
    }

    public func reload(_ context: ModuleContext) throws {
        Story.tell("Catalog", "reload: \(store.products.count) prices checked again")
    }

    public func tearDown(_ context: ModuleContext) throws {
        Story.tell("Catalog", "tearDown")
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
