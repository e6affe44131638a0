import BenchWorkloads

/// The baseline: patterns kept in a list and tried one by one against the path's components.
struct LinearRouter {
    private var routes: [(components: [RouteSet.Component], output: Int)] = []

    mutating func add(_ components: [RouteSet.Component], output: Int) {
        routes.append((components, output))
    }

    /// The first route whose components match, with the values of its variables.
    func route(_ path: String) -> (output: Int, parameters: [(name: String, value: Substring)])? {
        let parts = path.split(separator: "/")
        for route in routes where route.components.count == parts.count {
            var parameters: [(name: String, value: Substring)] = []
            var matched = true
            for (component, part) in zip(route.components, parts) {
                switch component {
                case .literal(let literal):
                    matched = literal == part
                case .variable(let name):
                    parameters.append((name, part))
                }
                if !matched { break }
            }
            if matched { return (route.output, parameters) }
        }
        return nil
    }

    /// Tries every route in order, as JLRoutes does when each handler declines; returns how many matched.
    func routeDeclining(_ path: String) -> Int {
        let parts = path.split(separator: "/")
        var matched = 0
        for route in routes where route.components.count == parts.count {
            var parameters: [(name: String, value: Substring)] = []
            var fits = true
            for (component, part) in zip(route.components, parts) {
                switch component {
                case .literal(let literal): fits = literal == part
                case .variable(let name): parameters.append((name, part))
                }
                if !fits { break }
            }
            if fits {
                matched += 1
                blackHoleParameters(parameters)
            }
        }
        return matched
    }
}

@inline(never) func blackHoleParameters(_ parameters: [(name: String, value: Substring)]) {}
