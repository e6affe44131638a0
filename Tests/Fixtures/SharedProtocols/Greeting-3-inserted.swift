// Another second version: a requirement inserted before the first one's.
public protocol Greeting: AnyObject {
    func farewell() -> String
    func greet() -> String
}

extension Greeting {
    public func farewell() -> String { "goodbye" }
}
