import ShopInterfaces
import Synchronization

/// The cart, made once by the service manager (singleton scope) with the catalog it prices from.
final class CartStore: CartService {
    private struct State {
        var lines: [CartLine] = []
        var nextOrder = 1
    }

    private let catalog: any CatalogService
    private let state = Mutex(State())

    init(catalog: any CatalogService) {
        self.catalog = catalog
    }

    var lines: [CartLine] {
        state.withLock { $0.lines }
    }

    var total: Price {
        lines.reduce(.zero) { $0 + $1.total }
    }

    func add(productID: Int, quantity: Int) -> CartLine? {
        guard let product = catalog.product(id: productID), quantity > 0 else { return nil }
        return state.withLock { state in
            if let index = state.lines.firstIndex(where: { $0.product.id == productID }) {
                state.lines[index] = CartLine(product: product, quantity: state.lines[index].quantity + quantity)
                return state.lines[index]
            }
            state.lines.append(CartLine(product: product, quantity: quantity))
            return state.lines[state.lines.count - 1]
        }
    }

    func checkOut(for customer: String) -> Order? {
        state.withLock { state in
            guard !state.lines.isEmpty else { return nil }
            defer {
                state.lines = []
                state.nextOrder += 1
            }
            return Order(number: state.nextOrder, customer: customer, lines: state.lines)
        }
    }
}
