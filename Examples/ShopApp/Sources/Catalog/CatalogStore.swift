import Foundation
import ShopInterfaces
import Synchronization

/// The catalog: empty until `load()` has read it.
final class CatalogStore: CatalogService {
    private let catalog = Mutex<[Int: Product]>([:])

    /// Reads the catalog. A real shop would fetch it; the demo takes the same noticeable time.
    func load() {
        Thread.sleep(forTimeInterval: 0.3)
        let products = [
            Product(id: 7, name: "Honey jar", price: Price(cents: 850)),
            Product(id: 12, name: "Beeswax candle", price: Price(cents: 1_200)),
            Product(id: 42, name: "Hive tool", price: Price(cents: 1_999)),
            Product(id: 99, name: "Bee suit", price: Price(cents: 8_900)),
        ]
        catalog.withLock { catalog in
            for product in products { catalog[product.id] = product }
        }
    }

    var products: [Product] {
        catalog.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    func product(id: Int) -> Product? {
        catalog.withLock { $0[id] }
    }
}
