/// The products on sale. Provided by the Catalog module (registered in code, a singleton that its async init
/// fills); used by Cart, Home and the Reviews plugin.
public protocol CatalogService: AnyObject, Sendable {
    /// Every product, by id; empty until the catalog has loaded.
    var products: [Product] { get }
    func product(id: Int) -> Product?
}
