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
    /// How patterns registered from now on are read. Defaults to none; ``RoutePattern/Options/optionalGroupsAreComponents``
    /// restores JLRoutes' reading of optional groups inside a component, ``RoutePattern/Options/trailingSlashIsComponent``
    /// its reading of a trailing slash.
    public var patternOptions: RoutePattern.Options
    /// Whether URLs are read with JLRoutes' two quirks: only a host with a dot or exactly `localhost` is a
    /// machine (so `LOCALHOST` and `[::1]` become path components), and a plain anchor is glued to the last
    /// path component (`app://v/x#top` gives `x#top`, and `app://v:8080#top` gives `v#top`). Defaults to false:
    /// `localhost` is a machine in any case, IP literals are machines, and a plain anchor is ignored. Either way, a
    /// host that is a path component compares case-sensitively, like any other component.
    public var readsURLsLikeJLRoutes: Bool

    public init(
        decodesPlusSymbols: Bool = true, alwaysTreatsHostAsPathComponent: Bool = false, maximumRedirects: Int = 16,
        patternOptions: RoutePattern.Options = [], readsURLsLikeJLRoutes: Bool = false
    ) {
        self.decodesPlusSymbols = decodesPlusSymbols
        self.alwaysTreatsHostAsPathComponent = alwaysTreatsHostAsPathComponent
        self.maximumRedirects = maximumRedirects
        self.patternOptions = patternOptions
        self.readsURLsLikeJLRoutes = readsURLsLikeJLRoutes
    }

    @inline(__always)
    func read(_ url: String) -> RouteURL {
        RouteURL(url, treatsHostAsPathComponent: alwaysTreatsHostAsPathComponent, readsLikeJLRoutes: readsURLsLikeJLRoutes)
    }
}
