import Foundation
import Glibc
import Testing

@_spi(BeeHiveInternals) import BeeHiveRegistry

@testable import BeeHiveLint

/// `HiveGraph(files:)`, what `beehive graph` draws.
@Suite(.timeLimit(.minutes(10)))
struct FileGraphTests {
    static let source = """
        #include <beehive.h>
        BeeHiveMod(Graph.ShopModule)
        BeeHiveModule(Graph.CoreModule, basic, 10, sync)
        BeeHiveModule(Graph.CartModule, normal, 50, async)
        BeeHiveService(Graph.CartProtocol, Graph.CartService)
        BeeHiveServiceScoped(Graph.PaymentProtocol, Graph.PaymentService, named, "checkout")
        BeeHiveRoute("/item/:id", Graph.ItemHandler)
        BeeHiveRouteScoped("/cart", Graph.CartService, "shop", 5)
        BeeHiveTarget(Basket, Graph.BasketTarget)

        """

    private func graph() throws -> HiveGraph {
        let path = try GeneratedELF(source: Self.source).write()
        defer { unlink(path) }
        return HiveGraph(files: [path])
    }

    @Test func modulesAreInLaunchOrder() throws {
        let graph = try graph()
        #expect(graph.modules.map(\.typeName) == ["Graph.CoreModule", "Graph.CartModule", "Graph.ShopModule"])
        #expect(graph.services.map(\.implementation) == ["Graph.CartService", "Graph.PaymentService"])
        #expect(graph.routes.map(\.handler) == ["Graph.ItemHandler", "Graph.CartService"])
        #expect(graph.targets.map(\.typeName) == ["Graph.BasketTarget"])
    }

    /// Graphviz's `dot` reads the output without an error or warning and lays out every node.
    @Test func dotOutputParsesWithGraphviz() throws {
        let dot = try graph().dot
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appending(path: "graph.dot")
        try dot.write(to: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        // -Tplain lists each laid-out node and edge on a line of its own.
        process.arguments = ["dot", "-Tplain", "-o", directory.appending(path: "graph.txt").path, input.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "dot (apt package graphviz) failed: \(messages)")
        #expect(messages.isEmpty, "\(messages)")
        let layout = try String(contentsOf: directory.appending(path: "graph.txt"), encoding: .utf8).split(separator: "\n")
        // 3 modules, 2 services, 2 routes, 1 target, 4 distinct types; 2 order edges and 5 others.
        #expect(layout.filter { $0.hasPrefix("node ") }.count == 12)
        #expect(layout.filter { $0.hasPrefix("edge ") }.count == 7)
    }

    @Test func mermaidHasTheExpectedShape() throws {
        let lines = try graph().mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart LR")
        #expect(lines.filter { $0.hasPrefix("  subgraph ") } == [
            #"  subgraph modules["Modules (launch order)"]"#, #"  subgraph services["Services"]"#,
            #"  subgraph routes["Routes"]"#, #"  subgraph targets["Mediator targets"]"#,
        ])
        #expect(lines.filter { $0 == "  end" }.count == 4)
        #expect(lines.contains(#"    m0["1. Graph.CoreModule<br/>basic, priority 10"]"#))
        #expect(lines.contains(#"    m1["2. Graph.CartModule<br/>normal, priority 50, async"]"#))
        #expect(lines.contains("    m0 -.-> m1") && lines.contains("    m1 -.-> m2"))
        #expect(lines.contains(#"    s1(["Graph.PaymentProtocol<br/>name: checkout"])"#))
        #expect(lines.contains(#"    r1[/"shop:///cart<br/>priority 5"/]"#))
        #expect(lines.contains(#"    g0{{"Basket"}}"#))
        // One node for Graph.CartService, which implements a service and handles a route.
        #expect(lines.filter { $0.contains(#"["Graph.CartService"]"#) }.count == 1)
        #expect(lines.contains("  s0 -->|transient| t0") && lines.contains("  r1 --> t0"))
    }

    /// `depends=` puts a module after what it needs, whatever its priority, and draws a "needs" edge.
    @Test func annotatedDependenciesOrderModulesAndAreDrawn() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleDepends(Graph.Checkout, normal, 90, sync, "Graph.Payments")
            BeeHiveMod(Graph.Payments)

            """).write()
        defer { unlink(path) }
        let graph = HiveGraph(files: [path])
        #expect(graph.modules.map(\.typeName) == ["Graph.Payments", "Graph.Checkout"])
        #expect(graph.mermaid.contains("    m1 -->|needs| m0\n"))
        #expect(graph.dot.contains("    m1 -> m0 [label=\"needs\"];\n"))
        // lint: the dependency's type is defined nowhere, like the modules' own types.
        let kinds = Linter.lint(files: [path]).findings.map(\.kind)
        #expect(kinds.contains(.typeNotFound(role: .moduleDependency, name: "Graph.Payments", suggestion: nil)))
    }

    @Test func emptyGraphIsStillAGraph() {
        let graph = HiveGraph(records: [])
        #expect(graph.dot == "digraph BeeHive {\n  rankdir=LR;\n  graph [fontname=\"Helvetica\"];\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n}\n")
        #expect(graph.mermaid == "flowchart LR\n")
    }
}
