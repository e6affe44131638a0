import Contracts

/// The host's own module, annotated in CHostAnnotations.
public final class AppModule: FixtureModule {
    public init() {}
    public var name: String { "app" }
}

/// A struct: `_typeByName("HostCore.LaunchModule")` does not resolve it, which the resolve command shows.
public struct LaunchModule {}
