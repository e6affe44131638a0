@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import Testing

final class GraphNetworkModule: Module {
    init() {}
}

final class GraphPaymentsModule: Module {
    init() {}
}

/// Declares its dependency in code only: no record says it, yet the running graph draws it.
final class GraphCheckoutModule: Module {
    static var dependencies: [ModuleDependency] { [.module(GraphPaymentsModule.self)] }
    init() {}
}

protocol GraphGreeter: Sendable {}
protocol GraphClock: Sendable {}
protocol GraphFeed: Sendable {}

final class GraphGreeterImpl: GraphGreeter, ServiceImplementation {
    init(resolver: ServiceResolver, arguments: ServiceArguments) {}
}

struct GraphUTCClock: GraphClock {}
struct GraphNewsFeed: GraphFeed {}

final class GraphItemHandler: RouteHandler {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool { true }
}

struct GraphBasketTarget: MediatorTarget {
    enum Action: String { case show }
    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? { nil }
}

/// `Hive.graph()`: what a hive has registered in code, drawn like `beehive graph` draws files.
@Suite(.timeLimit(.minutes(5)))
struct HiveGraphTests {
    static let prefix = "BeeHiveIntegrationTests."

    private func hive() throws -> Hive {
        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        try hive.modules.register(GraphCheckoutModule.self, priority: 90)
        try hive.modules.register(GraphPaymentsModule.self, priority: 10, isAsync: true)
        try hive.modules.register(GraphNetworkModule.self, level: .basic)
        hive.services.register(GraphGreeter.self, implementation: GraphGreeterImpl.self, scope: .singleton)
        hive.services.register(GraphClock.self, name: "utc", fileID: "Shop/Clock.swift", line: 7) { _, _ in GraphUTCClock() }
        hive.services.register(GraphFeed.self, scope: .singleton, fileID: "Shop/Feed.swift", line: 9) { _, _ async in GraphNewsFeed() }
        try hive.router.addRoute("/item/:id", scheme: "shop", priority: 5, handlerType: GraphItemHandler.self)
        try hive.router.addRoute("/home", fileID: "Shop/Home.swift", line: 3) { _ in true }
        hive.mediator.register(GraphBasketTarget.self, as: "Basket")
        return hive
    }

    @Test func graphHasTheManagersOrderAndCodeRegistrations() throws {
        let graph = try hive().graph()
        // Payments before Checkout, which needs it, despite its lower priority; the basic level first.
        #expect(graph.modules.map(\.typeName) == ["GraphNetworkModule", "GraphPaymentsModule", "GraphCheckoutModule"].map { Self.prefix + $0 })
        #expect(graph.modules.map(\.isAsync) == [false, true, false])
        #expect(graph.modules[2].dependencies == [Self.prefix + "GraphPaymentsModule"])
        #expect(graph.services.map(\.protocolName) == ["GraphClock", "GraphFeed", "GraphGreeter"].map { Self.prefix + $0 })
        #expect(
            graph.services.map(\.implementation)
                == ["factory at Shop/Clock.swift:7", "async factory at Shop/Feed.swift:9", Self.prefix + "GraphGreeterImpl"])
        #expect(graph.services.map(\.name) == ["utc", nil, nil])
        #expect(graph.services.map(\.scope) == [.transient, .singleton, .singleton])
        #expect(graph.routes.map(\.pattern) == ["/home", "/item/:id"])
        #expect(graph.routes.map(\.scheme) == [nil, "shop"])
        #expect(graph.routes.map(\.handler) == ["closure at Shop/Home.swift:3", Self.prefix + "GraphItemHandler"])
        #expect(graph.targets.map(\.name) == ["Basket"])
        #expect(graph.targets.map(\.typeName) == [Self.prefix + "GraphBasketTarget"])
    }

    @Test func dotParsesWithGraphviz() throws {
        let layout = try SystemTools.graphvizLayout(of: try hive().graph().dot)
        // 3 modules, 3 services, 2 routes, 1 target and 6 distinct handlers; 2 order edges, 1 "needs" and 6 others.
        #expect(layout.nodes == 15)
        #expect(layout.edges == 9)
    }

    @Test func mermaidHasTheExpectedShape() throws {
        let lines = try hive().graph().mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart LR")
        #expect(lines.filter { $0.hasPrefix("  subgraph ") } == [
            #"  subgraph modules["Modules (launch order)"]"#, #"  subgraph services["Services"]"#,
            #"  subgraph routes["Routes"]"#, #"  subgraph targets["Mediator targets"]"#,
        ])
        #expect(lines.filter { $0 == "  end" }.count == 4)
        #expect(lines.contains(#"    m0["1. BeeHiveIntegrationTests.GraphNetworkModule<br/>basic, priority 0"]"#))
        #expect(lines.contains(#"    m1["2. BeeHiveIntegrationTests.GraphPaymentsModule<br/>normal, priority 10, async"]"#))
        #expect(lines.contains("    m2 -->|needs| m1"))
        #expect(lines.contains(#"    s0(["BeeHiveIntegrationTests.GraphClock<br/>name: utc"])"#))
        #expect(lines.contains(#"    r1[/"shop:///item/:id<br/>priority 5"/]"#))
        #expect(lines.contains(#"    g0{{"Basket"}}"#))
        #expect(lines.contains(#"  t0["factory at Shop/Clock.swift:7"]"#))
        #expect(lines.contains(#"  t1["async factory at Shop/Feed.swift:9"]"#))
        #expect(lines.contains("  s0 -->|transient| t0") && lines.contains("  s1 -->|singleton| t1") && lines.contains("  g0 --> t5"))
    }
}
