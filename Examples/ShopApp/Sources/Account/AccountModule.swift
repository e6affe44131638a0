import BeeHive
import ShopInterfaces

/// Sessions and loyalty points. Registered by its C annotation, `BeeHiveModule(Account.AccountModule, basic,
/// 100, sync)`: a basic-level module, so it starts before the normal ones and stops after them.
public final class AccountModule: Module {
    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        try context.manager.addHandler(for: ShopEvents.orderPlaced, module: self) { context in
            guard let order = context.customParameter(as: Order.self) else { return }
            let account = try Hive.shared.services.resolve(AccountService.self)
            let points = order.total.cents / 100
            let balance = account.awardPoints(points, to: order.customer)
            Story.tell("Account", "\(context.event) orderPlaced: +\(points) points for \(order.customer), balance \(balance)")
        }
        Story.tell("Account", "setUp: basic level, priority 100 (C annotation); handles orderPlaced")
    }

    public func initialize(_ context: ModuleContext) throws {
        Story.tell("Account", "init: session store ready (environment \(context.environment))")
    }

    public func splash(_ context: ModuleContext) throws {
        Story.tell("Account", "splash")
    }

    public func reload(_ context: ModuleContext) throws {
        Story.tell("Account", "reload: session settings read again")
    }

    public func didReceiveUserSignal(_ context: ModuleContext) throws {
        let account = try Hive.shared.services.resolve(AccountService.self)
        Story.tell("Account", "\(context.event): signed in: \(account.currentUser ?? "nobody")")
    }

    public func willTerminate(_ context: ModuleContext) throws {
        let signal = context.customParameter(as: ProcessSignal.self).map { " after \($0)" } ?? ""
        Story.tell("Account", "willTerminate\(signal): signing everyone out")
        try Hive.shared.services.resolve(AccountService.self).signOut()
    }

    public func tearDown(_ context: ModuleContext) throws {
        Story.tell("Account", "tearDown")
    }
}
