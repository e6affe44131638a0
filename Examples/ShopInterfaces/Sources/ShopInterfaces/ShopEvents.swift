import BeeHive

/// The shop's custom module events (BeeHive's custom events: values from 1000).
public enum ShopEvents {
    /// An order was placed; the custom parameter is the `Order`. Cart triggers it; Account, Home and the
    /// Reviews plugin handle it.
    public static let orderPlaced = CustomEvent(offset: 1)
}
