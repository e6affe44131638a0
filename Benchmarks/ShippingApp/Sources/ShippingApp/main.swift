import BeeHive

// The README's tutorial app without its prints: starts its modules, routes one URL and stops.
protocol Greeting: Sendable {
    func greet(_ name: String) -> String
}

final class EnglishGreeting: Greeting, SimpleServiceImplementation {
    init() {}
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

final class GreeterModule: AsyncModule {
    init() {}
    func initialize(_ context: ModuleContext) async throws {}
}

final class GreetHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool {
        Hive.shared.services.createService(Greeting.self)?.greet(parameters["name"] ?? "") != nil
    }
}

HiveHost().main { hive in
    guard try hive.open("/greet/Linux").isHandled else { fatalError("the route did not answer") }
}
