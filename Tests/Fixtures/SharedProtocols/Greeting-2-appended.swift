// The second version: a requirement appended, with a default, so that the plugin's source builds unchanged.
public protocol Greeting: AnyObject {
    func greet() -> String
    func farewell() -> String
}

extension Greeting {
    public func farewell() -> String { "goodbye" }
}
