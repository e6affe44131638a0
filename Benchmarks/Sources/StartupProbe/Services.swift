import BeeHive

// The stand-in app's services, each a protocol and a class named by an annotation.

public protocol FeedService: AnyObject, Sendable { func itemCount() -> Int }
public final class FeedServiceImpl: FeedService, SimpleServiceImplementation {
    public init() {}
    public func itemCount() -> Int { 3 }
}

public protocol AccountService: AnyObject, Sendable { var userName: String { get } }
public final class AccountServiceImpl: AccountService, SimpleServiceImplementation {
    public init() {}
    public var userName: String { "guest" }
}

public protocol SearchService: AnyObject, Sendable {}
public final class SearchServiceImpl: SearchService, SimpleServiceImplementation {
    public init() {}
}

public protocol MessagesService: AnyObject, Sendable {}
public final class MessagesServiceImpl: MessagesService, SimpleServiceImplementation {
    public init() {}
}

public protocol SettingsService: AnyObject, Sendable {}
public final class SettingsServiceImpl: SettingsService, SimpleServiceImplementation {
    public init() {}
}

public protocol ClockService: AnyObject, Sendable {}
public final class ClockServiceImpl: ClockService, SimpleServiceImplementation {
    public init() {}
}
