/// How a ``Router`` reads URLs. Changes apply from the next routing call on.
public struct RouterConfiguration: Sendable, Hashable {
    /// Whether `+` in values becomes a space (JLRoutes' `shouldDecodePlusSymbols`). Defaults to true.
    ///
    /// As in JLRoutes, it applies after percent-decoding, so `%2B` also becomes a space; turn it off to keep
    /// pluses.
    public var decodesPlusSymbols: Bool
    /// Whether the host is always the first path component (JLRoutes' `alwaysTreatsHostAsPathComponent`).
    /// Defaults to false: the host is a path component (`myapp://user/42`) unless it looks like a domain name
    /// (it has a dot), is an IP literal or is `localhost`.
    public var alwaysTreatsHostAsPathComponent: Bool
    /// How many redirects interceptors may chain for one routing call before it fails. Defaults to 16.
    public var maximumRedirects: Int

    public init(decodesPlusSymbols: Bool = true, alwaysTreatsHostAsPathComponent: Bool = false, maximumRedirects: Int = 16) {
        self.decodesPlusSymbols = decodesPlusSymbols
        self.alwaysTreatsHostAsPathComponent = alwaysTreatsHostAsPathComponent
        self.maximumRedirects = maximumRedirects
    }
}
