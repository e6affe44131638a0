import Foundation

/// What an app declares or has registered, as one graph: modules in launch order, services to their
/// implementations, routes to their handlers and mediator targets to their types. Written as Graphviz DOT or as
/// Mermaid.
///
/// Made two ways that draw alike: offline from the records of ELF files (`beehive graph`, `init(files:)`), and
/// from a running process (`Hive.graph()`), which also shows what was registered in code and from
/// configuration files, and the order the module manager really uses.
public struct HiveGraph: Sendable, Hashable {
    package struct Module: Sendable, Hashable {
        package let typeName: String
        package let level: ModuleLevel
        package let priority: Int
        package let isAsync: Bool
        /// The modules it must come after, by type name.
        package let dependencies: [String]

        package init(typeName: String, level: ModuleLevel, priority: Int, isAsync: Bool, dependencies: [String]) {
            self.typeName = typeName
            self.level = level
            self.priority = priority
            self.isAsync = isAsync
            self.dependencies = dependencies
        }
    }

    package struct Service: Sendable, Hashable {
        package let protocolName: String
        package let name: String?
        /// The implementation's type name, or what else makes the instances (a factory closure).
        package let implementation: String
        package let scope: ServiceScope

        package init(protocolName: String, name: String?, implementation: String, scope: ServiceScope) {
            self.protocolName = protocolName
            self.name = name
            self.implementation = implementation
            self.scope = scope
        }
    }

    package struct Route: Sendable, Hashable {
        package let scheme: String?
        package let pattern: String
        package let priority: Int
        /// The handler's type name, or what else handles the route (a closure).
        package let handler: String

        package init(scheme: String?, pattern: String, priority: Int, handler: String) {
            self.scheme = scheme
            self.pattern = pattern
            self.priority = priority
            self.handler = handler
        }
    }

    package struct Target: Sendable, Hashable {
        package let name: String
        package let typeName: String

        package init(name: String, typeName: String) {
            self.name = name
            self.typeName = typeName
        }
    }

    /// In launch order.
    package let modules: [Module]
    package let services: [Service]
    /// In the order URLs meet them.
    package let routes: [Route]
    package let targets: [Target]

    /// The parts as they are: `modules` already in launch order.
    package init(modules: [Module], services: [Service], routes: [Route], targets: [Target]) {
        self.modules = modules
        self.services = services
        self.routes = routes
        self.targets = targets
    }

    /// What the records declare. Modules are in launch order (`LaunchOrder`) over their annotated dependencies
    /// (`depends=`); dependencies declared only in code are not in records, so not in this graph. Services are
    /// by protocol, then name; routes by scheme, then pattern; targets by name.
    package init(records: [AnnotationRecord]) {
        var modules: [Module] = [], services: [Service] = [], routes: [Route] = [], targets: [Target] = []
        for record in records {
            switch record.payload {
            case .module(let module):
                modules.append(
                    Module(
                        typeName: module.typeName, level: module.level, priority: module.priority, isAsync: module.isAsync,
                        dependencies: module.dependencies))
            case .service(let service):
                services.append(
                    Service(protocolName: service.protocolName, name: service.name, implementation: service.typeName, scope: service.scope))
            case .route(let route):
                routes.append(Route(scheme: route.scheme, pattern: route.pattern, priority: route.priority, handler: route.typeName))
            case .target(let target):
                targets.append(Target(name: target.name, typeName: target.typeName))
            }
        }
        self.init(
            modules: Self.launchOrder(modules),
            services: Array(Set(services)).sorted {
                ($0.protocolName, $0.name ?? "", $0.implementation) < ($1.protocolName, $1.name ?? "", $1.implementation)
            },
            routes: Array(Set(routes)).sorted { ($0.scheme ?? "", $0.pattern, $0.handler) < ($1.scheme ?? "", $1.pattern, $1.handler) },
            targets: Array(Set(targets)).sorted { ($0.name, $0.typeName) < ($1.name, $1.typeName) })
    }

    /// The launch's own order (`LaunchOrder`), so the graph shows the order the module manager follows.
    private static func launchOrder(_ modules: [Module]) -> [Module] {
        let unique = Array(Set(modules))
        return LaunchOrder.arrange(
            count: unique.count,
            ranksBefore: { a, b in
                LaunchOrder.ranksBefore(
                    (unique[a].level, unique[a].priority), (unique[b].level, unique[b].priority),
                    namesAscend: { unique[a].typeName < unique[b].typeName })
            },
            name: { unique[$0].typeName },
            dependencies: { unique[$0].dependencies }
        ).order.map { unique[$0] }
    }

    /// What the files declare, read offline; records that do not parse are left out (inspect and lint report
    /// them).
    @_spi(BeeHiveInternals)
    public init(files: [String]) {
        self.init(records: files.flatMap { SectionReader.readFile(atPath: $0).records })
    }

    // MARK: Labels shared by both formats

    private func moduleLabel(_ module: Module, at index: Int) -> [String] {
        ["\(index + 1). \(module.typeName)", "\(module.level.rawValue), priority \(module.priority)\(module.isAsync ? ", async" : "")"]
    }

    private func serviceLabel(_ service: Service) -> [String] {
        [service.protocolName] + (service.name.map { ["name: \($0)"] } ?? [])
    }

    private func routeLabel(_ route: Route) -> [String] {
        [(route.scheme.map { "\($0)://" } ?? "") + route.pattern] + (route.priority != 0 ? ["priority \(route.priority)"] : [])
    }

    /// (dependent, dependency) module indices, for dependencies that are modules of the graph.
    private var dependencyEdges: [(Int, Int)] {
        let index = Dictionary(modules.enumerated().map { ($1.typeName, $0) }, uniquingKeysWith: { first, _ in first })
        return modules.enumerated().flatMap { position, module in
            module.dependencies.compactMap { index[$0].map { (position, $0) } }
        }
    }

    /// Node identifiers for the types on the right-hand side of services, routes and targets: one node per type,
    /// so a type that implements a service and handles a route shows once.
    private var typeNodes: [(name: String, id: String)] {
        var seen: [String] = []
        for name in services.map(\.implementation) + routes.map(\.handler) + targets.map(\.typeName) where !seen.contains(name) {
            seen.append(name)
        }
        return seen.enumerated().map { ($1, "t\($0)") }
    }

    // MARK: Graphviz

    /// The graph in Graphviz's DOT language: `dot -Tsvg` draws it.
    public var dot: String {
        let types = Dictionary(uniqueKeysWithValues: typeNodes.map { ($0.name, $0.id) })
        var lines = [
            "digraph BeeHive {", "  rankdir=LR;", "  graph [fontname=\"Helvetica\"];", "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        if !modules.isEmpty {
            lines.append("  subgraph cluster_modules {")
            lines.append("    label=\"Modules (launch order)\";")
            for (index, module) in modules.enumerated() {
                lines.append("    m\(index) [label=\(Self.dotString(moduleLabel(module, at: index)))];")
            }
            for index in modules.indices.dropLast() {
                lines.append("    m\(index) -> m\(index + 1) [style=dashed, arrowhead=open];")
            }
            for (index, dependency) in dependencyEdges { lines.append("    m\(index) -> m\(dependency) [label=\"needs\"];") }
            lines.append("  }")
        }
        func cluster(_ name: String, _ label: String, _ nodes: [(id: String, label: [String], shape: String)]) {
            guard !nodes.isEmpty else { return }
            lines.append("  subgraph cluster_\(name) {")
            lines.append("    label=\(Self.dotString([label]));")
            for node in nodes { lines.append("    \(node.id) [label=\(Self.dotString(node.label)), shape=\(node.shape)];") }
            lines.append("  }")
        }
        cluster("services", "Services", services.enumerated().map { ("s\($0)", serviceLabel($1), "ellipse") })
        cluster("routes", "Routes", routes.enumerated().map { ("r\($0)", routeLabel($1), "note") })
        cluster("targets", "Mediator targets", targets.enumerated().map { ("g\($0)", [$1.name], "cds") })
        for (name, id) in typeNodes { lines.append("  \(id) [label=\(Self.dotString([name]))];") }
        for (index, service) in services.enumerated() {
            lines.append("  s\(index) -> \(types[service.implementation]!) [label=\(Self.dotString([service.scope.rawValue]))];")
        }
        for (index, route) in routes.enumerated() { lines.append("  r\(index) -> \(types[route.handler]!);") }
        for (index, target) in targets.enumerated() { lines.append("  g\(index) -> \(types[target.typeName]!);") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string of lines: quotes and backslashes escaped, lines joined with `\n`.
    private static func dotString(_ lines: [String]) -> String {
        let escaped = lines.map { line in
            line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: " ")
        }
        return "\"" + escaped.joined(separator: "\\n") + "\""
    }

    // MARK: Mermaid

    /// The graph as a Mermaid flowchart.
    public var mermaid: String {
        let types = Dictionary(uniqueKeysWithValues: typeNodes.map { ($0.name, $0.id) })
        var lines = ["flowchart LR"]
        if !modules.isEmpty {
            lines.append("  subgraph modules[\"Modules (launch order)\"]")
            lines.append("    direction TB")
            for (index, module) in modules.enumerated() {
                lines.append("    m\(index)[\(Self.mermaidString(moduleLabel(module, at: index)))]")
            }
            for index in modules.indices.dropLast() { lines.append("    m\(index) -.-> m\(index + 1)") }
            for (index, dependency) in dependencyEdges { lines.append("    m\(index) -->|needs| m\(dependency)") }
            lines.append("  end")
        }
        func cluster(_ name: String, _ label: String, _ nodes: [(id: String, text: String)]) {
            guard !nodes.isEmpty else { return }
            lines.append("  subgraph \(name)[\(Self.mermaidString([label]))]")
            for node in nodes { lines.append("    \(node.id)\(node.text)") }
            lines.append("  end")
        }
        cluster("services", "Services", services.enumerated().map { ("s\($0)", "([\(Self.mermaidString(serviceLabel($1)))])") })
        cluster("routes", "Routes", routes.enumerated().map { ("r\($0)", "[/\(Self.mermaidString(routeLabel($1)))/]") })
        cluster("targets", "Mediator targets", targets.enumerated().map { ("g\($0)", "{{\(Self.mermaidString([$1.name]))}}") })
        for (name, id) in typeNodes { lines.append("  \(id)[\(Self.mermaidString([name]))]") }
        for (index, service) in services.enumerated() {
            lines.append("  s\(index) -->|\(service.scope.rawValue)| \(types[service.implementation]!)")
        }
        for (index, route) in routes.enumerated() { lines.append("  r\(index) --> \(types[route.handler]!)") }
        for (index, target) in targets.enumerated() { lines.append("  g\(index) --> \(types[target.typeName]!)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A quoted Mermaid label: quotes and characters Mermaid reads as markup replaced by entity codes, lines
    /// joined with `<br/>`.
    private static func mermaidString(_ lines: [String]) -> String {
        let escaped = lines.map { line in
            var text = ""
            for character in line {
                switch character {
                case "\"": text += "#quot;"
                case "<": text += "#lt;"
                case ">": text += "#gt;"
                case "#": text += "#35;"
                case "\n": text += " "
                default: text.append(character)
                }
            }
            return text
        }
        return "\"" + escaped.joined(separator: "<br/>") + "\""
    }
}
