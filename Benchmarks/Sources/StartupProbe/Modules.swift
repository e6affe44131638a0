import BeeHive

// The stand-in app's modules: the kind of work a feature module does at startup, without the sleeping.

public final class CoreModule: Module {
    public init() {}
    public func setUp(_ context: ModuleContext) throws { context.config[Probe.readyKey] = true }
}

public final class AccountModule: Module {
    public init() {}
}

public final class FeedModule: Module {
    public static var dependencies: [ModuleDependency] { [.module(AccountModule.self)] }
    public init() {}
}

public final class SearchModule: Module {
    public init() {}
}

public final class MessagesModule: Module {
    public init() {}
}

public final class SettingsModule: Module {
    public init() {}
}
