// The first version of a library of protocols a host shares with its plugins.
public protocol Greeting: AnyObject {
    func greet() -> String
}
