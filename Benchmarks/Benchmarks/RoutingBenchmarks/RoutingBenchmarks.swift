import BenchSupport
import BenchWorkloads
import Benchmark
import BeeHive
import RoutingKit

/// Matching one path against tables of 10 to 10,000 routes: BeeHive's `Router`, RoutingKit 4.9.3's
/// `TrieRouter` (given the path as a string, then already split into components), and a linear scan. Every
/// router gets the same routes and the same 64 paths, spread over the table; each sample is 1,000 matches and
/// results are per match.
let benchmarks: @Sendable () -> Void = {
    let configuration = Tolerances.configuration(scalingFactor: .kilo)

    for count in [10, 100, 1_000, 10_000] {
        let routes = LazyRoutes(count: count)

        Benchmark("Match.BeeHive-Router@\(count)", configuration: configuration) { benchmark in
            let (router, lookups) = (routes.beeHive, routes.set.lookups)
            for iteration in benchmark.scaledIterations {
                blackHole(router.match(lookups[iteration % lookups.count].path))
            }
        } setup: {
            routes.prepareBeeHive()
        }
        Benchmark("Match.RoutingKit-TrieRouter-split@\(count)", configuration: configuration) { benchmark in
            let (router, lookups) = (routes.routingKit, routes.set.lookups)
            for iteration in benchmark.scaledIterations {
                var parameters = Parameters()
                let path = lookups[iteration % lookups.count].path.split(separator: "/").map(String.init)
                blackHole(router.route(path: path, parameters: &parameters))
            }
        } setup: {
            routes.prepareRoutingKit()
        }
        Benchmark("Match.RoutingKit-TrieRouter-components@\(count)", configuration: configuration) {
            benchmark in
            let (router, paths) = (routes.routingKit, routes.splitPaths)
            for iteration in benchmark.scaledIterations {
                var parameters = Parameters()
                blackHole(router.route(path: paths[iteration % paths.count], parameters: &parameters))
            }
        } setup: {
            routes.prepareRoutingKit()
        }
        Benchmark("Match.linear-scan@\(count)", configuration: configuration) { benchmark in
            let (router, lookups) = (routes.linear, routes.set.lookups)
            for iteration in benchmark.scaledIterations {
                blackHole(router.route(lookups[iteration % lookups.count].path))
            }
        } setup: {
            routes.prepareLinear()
        }
    }
    scaleBenchmarks()
}

/// Builds only the router the benchmark running in this process needs (each benchmark has its own process),
/// and checks that it matches every path to the route the route set expects.
final class LazyRoutes {
    let set: RouteSet
    private(set) var beeHive = Router()
    private(set) var routingKit = TrieRouter(Int.self)
    private(set) var linear = LinearRouter()
    let splitPaths: [[String]]

    init(count: Int) {
        set = RouteSet(routes: count)
        splitPaths = set.lookups.map { $0.path.split(separator: "/").map(String.init) }
    }

    func prepareBeeHive() {
        let router = Router()
        for pattern in set.patterns {
            do {
                try router.addRoute(pattern)
            } catch {
                fatalError("BeeHive refused \(pattern): \(error)")
            }
        }
        for (path, route) in set.lookups {
            let found = router.match(path)?.route.pattern.text
            precondition(found == set.patterns[route], "BeeHive matched \(path) to \(found ?? "nothing")")
        }
        beeHive = router
    }

    func prepareRoutingKit() {
        let router = TrieRouter(Int.self)
        for (index, components) in set.components.enumerated() {
            router.register(index, at: components.map { component -> PathComponent in
                switch component {
                case .literal(let literal): .constant(literal)
                case .variable(let name): .parameter(name)
                }
            })
        }
        for (path, route) in zip(splitPaths, set.lookups.map(\.route)) {
            var parameters = Parameters()
            let found = router.route(path: path, parameters: &parameters)
            precondition(found == route, "RoutingKit matched \(path) to \(found.map(String.init) ?? "nothing")")
        }
        routingKit = router
    }

    func prepareLinear() {
        var router = LinearRouter()
        for (index, components) in set.components.enumerated() { router.add(components, output: index) }
        for (path, route) in set.lookups {
            let found = router.route(path)?.output
            precondition(found == route, "the linear scan matched \(path) to \(found.map(String.init) ?? "nothing")")
        }
        linear = router
    }
}
