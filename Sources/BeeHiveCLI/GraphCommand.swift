import ArgumentParser
@_spi(BeeHiveInternals) import BeeHiveRegistry

/// `beehive graph FILE... [--format dot|mermaid]`: what the files declare, as a graph to render.
struct GraphCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot, mermaid
    }

    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the modules, services, routes and mediator targets that ELF files declare.",
        discussion: """
            Reads the files offline, like inspect, and prints one graph: the modules in launch order (level, \
            then priority, then name), each service protocol to its implementation (labelled with its scope), \
            each route to its handler and each mediator target to its type. Graphviz renders DOT \
            (beehive graph app libshop.so | dot -Tsvg > graph.svg); Markdown viewers render Mermaid. Records \
            that do not parse are left out: inspect and lint report them.
            """
    )

    @Argument(help: "Executables and shared libraries to read together.")
    var files: [String]

    @Option(help: "dot (Graphviz) or mermaid.")
    var format: Format = .dot

    func run() throws {
        let graph = HiveGraph(files: files)
        print(format == .dot ? graph.dot : graph.mermaid, terminator: "")
    }
}
