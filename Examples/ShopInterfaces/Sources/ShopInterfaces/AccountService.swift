/// Who is signed in, and their loyalty points. Provided by the Account module (a C `BeeHiveServiceScoped`
/// annotation, singleton scope: every module sees the same session); used by Cart's login guard, Home and the
/// Reviews plugin.
public protocol AccountService: AnyObject, Sendable {
    var currentUser: String? { get }
    func signIn(_ user: String)
    func signOut()
    /// Adds points to a customer's balance and returns the new balance.
    func awardPoints(_ points: Int, to user: String) -> Int
}
