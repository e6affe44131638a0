import BeeHive

// The stand-in app's route handlers.

public final class FeedPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { true }
}

public final class FeedItemPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { parameters["id"] != nil }
}

public final class AccountPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { true }
}

public final class SearchPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { true }
}

public final class MessagesPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { true }
}

public final class SettingsPage: RouteHandler {
    public init() {}
    public func handle(_ parameters: RouteParameters) -> Bool { true }
}
