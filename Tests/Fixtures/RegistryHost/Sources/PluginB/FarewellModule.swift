import Contracts

public final class FarewellModule: FixtureModule {
    public init() {}
    public var name: String { "farewell" }
}
