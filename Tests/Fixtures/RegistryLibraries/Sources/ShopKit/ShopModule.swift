import Contracts

public final class ShopModule: FixtureModule {
    public init() {}
    public var name: String { "shop" }
}

public final class CartService {
    public init() {}
}

/// Not a top-level class: `_typeByName("ShopKit.Detail")` does not resolve it.
public struct Detail {}
