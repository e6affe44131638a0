import BenchSupport
import BenchWorkloads
import Benchmark
import BeeHive

/// Issue 14's targets, in the same run as the Match peers (RoutingKit, linear scan):
/// - `Route.*`: `route()` (handler run) of a URL with one variable and one query item, 10 to 10,000 routes; and of
///   a route without variables or query, whose allocations are counted.
/// - `Decline.*`: one URL matched by 4,096 overlapping routes whose handlers all decline, against a linear scan
///   that tries every route once (JLRoutes' way).
/// - `Removal.*`: removing 10,000 routes that share one pattern, by id and by pattern.
func scaleBenchmarks() {
    let configuration = Tolerances.configuration(scalingFactor: .kilo)

    for count in [10, 100, 1_000, 10_000] {
        let routes = LazyRoutes(count: count)
        Benchmark("Route.BeeHive-Router-variable-query@\(count)", configuration: configuration) { benchmark in
            let router = routes.beeHive
            let urls = routes.set.variableQueryURLs
            for iteration in benchmark.scaledIterations {
                blackHole(try? router.route(urls[iteration % urls.count]))
            }
        } setup: {
            routes.prepareBeeHive()
        }
        Benchmark("Route.BeeHive-Router-static@\(count)", configuration: configuration) { benchmark in
            let router = routes.beeHive
            let urls = routes.set.lookups.filter { $0.route % 3 == 1 }.map(\.path)
            for iteration in benchmark.scaledIterations {
                blackHole(try? router.route(urls[iteration % urls.count]))
            }
        } setup: {
            routes.prepareBeeHive()
        }
    }

    let single = Tolerances.configuration(maxDuration: .seconds(2))
    // Built by the setup of the benchmark that runs (each benchmark has its own process), not at registration.
    let overlapping = LazyOverlappingRoutes()
    Benchmark("Decline.BeeHive-Router@4096", configuration: single) { benchmark in
        let router = overlapping.routes.router
        for _ in benchmark.scaledIterations {
            blackHole(try? router.route(OverlappingRoutes.url))
        }
    } setup: {
        overlapping.prepare()
    }
    Benchmark("Decline.linear-scan@4096", configuration: single) { benchmark in
        let linear = overlapping.routes.linear
        for _ in benchmark.scaledIterations {
            blackHole(linear.routeDeclining(OverlappingRoutes.url))
        }
    } setup: {
        overlapping.prepare()
    }

    for byPattern in [false, true] {
        Benchmark("Removal.BeeHive-Router-\(byPattern ? "by-pattern" : "by-id")@10000", configuration: single) { benchmark in
            for _ in benchmark.scaledIterations {
                let router = Router()
                var ids: [RouteID] = []
                ids.reserveCapacity(10_000)
                for _ in 0..<10_000 { ids.append(try! router.addRoute("/same/:id") { _ in true }) }
                benchmark.startMeasurement()
                if byPattern {
                    precondition(router.removeRoutes(withPattern: "/same/:id") == 10_000)
                } else {
                    for id in ids { precondition(router.removeRoute(id)) }
                }
                benchmark.stopMeasurement()
            }
        }
    }
}

final class LazyOverlappingRoutes {
    private var built: OverlappingRoutes?
    var routes: OverlappingRoutes { built! }
    func prepare() { if built == nil { built = OverlappingRoutes() } }
}

/// 4,096 distinct patterns that all fit one URL (each of 12 components a literal or a variable), every handler
/// declining; and the same patterns in a list for the linear scan.
final class OverlappingRoutes {
    static let url = "/" + (0..<12).map { "c\($0)" }.joined(separator: "/")
    let router = Router()
    let linear: LinearRouter

    init() {
        var linear = LinearRouter()
        for mask in 0..<4_096 {
            let components: [RouteSet.Component] = (0..<12).map { bit in
                mask & (1 << bit) == 0 ? .literal("c\(bit)") : .variable("v\(bit)")
            }
            let pattern = "/" + components.map { component in
                switch component {
                case .literal(let text): text
                case .variable(let name): ":" + name
                }
            }.joined(separator: "/")
            _ = try! router.addRoute(pattern) { _ in false }
            linear.add(components, output: mask)
        }
        self.linear = linear
    }
}
