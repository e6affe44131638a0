import BeeHive
import Foundation
import ShopInterfaces

/// Sends a shopper who is not signed in from the checkout to the login page, which brings them back:
/// `shop://cart/checkout` becomes `shop://login?next=shop%3A%2F%2Fcart%2Fcheckout`.
struct LoginGuard: RouteInterceptor {
    func intercept(_ request: RouteRequest) -> InterceptorDecision {
        guard request.pathComponents == ["cart", "checkout"] else { return .proceed }
        if Hive.shared.services.createService(AccountService.self)?.currentUser != nil { return .proceed }
        let next = request.url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? request.url
        let login = "\(request.scheme ?? "shop")://login?next=\(next)"
        Story.tell("Cart", "login guard (interceptor): not signed in, redirecting \(request.url) -> \(login)")
        return .redirect(to: login)
    }
}
