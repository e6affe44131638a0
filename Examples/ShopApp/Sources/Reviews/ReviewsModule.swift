import BeeHive
import ShopInterfaces

/// Product reviews, shipped as a plugin (libReviews.so) and declared by `BeeHiveMod(Reviews.ReviewsModule)`.
/// When the app loads it after the launch, the module catches up: setUp, init and splash.
public final class ReviewsModule: Module {
    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        try context.manager.addHandler(for: ShopEvents.orderPlaced, module: self) { context in
            guard let order = context.customParameter(as: Order.self) else { return }
            let names = order.lines.map(\.product.name).joined(separator: ", ")
            Story.tell("Reviews", "\(context.event) orderPlaced: will ask \(order.customer) to review \(names)")
        }
        let late = context.manager.isStarted ? ", catching up after the launch" : ""
        Story.tell("Reviews", "setUp: plugin module (C annotation in libReviews.so)\(late); handles orderPlaced")
    }

    public func initialize(_ context: ModuleContext) throws {
        let products = try Hive.shared.services.resolve(CatalogService.self).products.count
        Story.tell("Reviews", "init: reviews for \(products) products, using the app's CatalogService")
    }

    public func splash(_ context: ModuleContext) throws {
        Story.tell("Reviews", "splash")
    }

    public func tearDown(_ context: ModuleContext) throws {
        Story.tell("Reviews", "tearDown")
    }
}
