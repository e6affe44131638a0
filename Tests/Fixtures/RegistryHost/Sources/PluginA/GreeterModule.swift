import Contracts

public final class GreeterModule: FixtureModule {
    public init() {}
    public var name: String { "greeter" }
}
