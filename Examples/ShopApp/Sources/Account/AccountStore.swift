import BeeHive
import ShopInterfaces
import Synchronization

/// The app's session, named by `BeeHiveServiceScoped(ShopInterfaces.AccountService, Account.AccountStore,
/// singleton, "")`: the service manager makes it the first time a module asks, then hands everyone that one.
public final class AccountStore: AccountService, SimpleServiceImplementation {
    private struct State {
        var user: String?
        var points: [String: Int] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var currentUser: String? {
        state.withLock { $0.user }
    }

    public func signIn(_ user: String) {
        state.withLock { $0.user = user }
    }

    public func signOut() {
        state.withLock { $0.user = nil }
    }

    public func awardPoints(_ points: Int, to user: String) -> Int {
        state.withLock { state in
            state.points[user, default: 0] += points
            return state.points[user, default: 0]
        }
    }
}
