import BeeHive
import ShopInterfaces

/// `shop://wishlist/add?item=ID`, declared by `BeeHiveRoute("/wishlist/add", Wishlist.WishlistPage)` in the
/// plugin libWishlist.so of the plugins folder: the app knows the route from the folder's index, and the first
/// URL it handles loads the plugin.
public final class WishlistPage: RouteHandler {
    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool {
        guard let id = parameters["item"].flatMap(Int.init),
            let product = Hive.shared.services.createService(CatalogService.self)?.product(id: id)
        else { return false }
        Story.tell("Wishlist", "route /wishlist/add (plugin from the folder): \(product.name) saved for later")
        return true
    }
}
