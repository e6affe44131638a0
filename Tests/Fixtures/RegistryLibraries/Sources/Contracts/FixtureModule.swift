/// The protocol every fixture module conforms to. It lives in a shared library that the host and the plugins
/// both link, so a plugin's class conforms to the host's copy of it.
public protocol FixtureModule: AnyObject {
    init()
    var name: String { get }
}
