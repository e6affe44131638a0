@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps what handlers received, from any thread.
final class Recorder: Sendable {
    private let matches = Mutex<[RouteParameters]>([])

    /// A handler that records its parameters and accepts the route.
    var handler: Router.Handler {
        { [self] parameters in
            matches.withLock { $0.append(parameters) }
            return true
        }
    }

    var last: RouteParameters? { matches.withLock { $0.last } }
    var count: Int { matches.withLock { $0.count } }

    func reset() { matches.withLock { $0.removeAll() } }
}

/// A router with JLRoutes' test conventions: `route` returns the parameters the handler saw, or nil when
/// nothing was routed.
struct Harness {
    let router = Router()
    let recorder = Recorder()

    var handler: Router.Handler { recorder.handler }

    func add(_ pattern: String, scheme: String? = nil, priority: Int = 0) throws {
        try router.addRoute(pattern, scheme: scheme, priority: priority, handler: handler)
    }

    func route(_ url: String, parameters: [String: any Sendable] = [:]) throws -> RouteParameters? {
        recorder.reset()
        let result = try router.route(url, parameters: parameters)
        guard result.isHandled else { return nil }
        return recorder.last
    }
}

extension RouteParameters {
    /// JLRoutes' `JLValidateParameterCount`: the keys besides pattern, URL and scheme.
    var userCount: Int { count - 3 }
    /// JLRoutes' `JLValidateParameterCountIncludingWildcard`.
    var userCountBesidesWildcard: Int { count - 4 }
}

/// A seeded generator (SplitMix64), so that a test using random numbers can be replayed from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator seeded from the environment variable `name` when it is set (to replay a failure), else from
    /// the system's generator; the seed is printed, and failure messages name it (``replay``).
    static func seeded(from name: String = "BEEHIVE_TEST_SEED", test: String = #function) -> SplitMix {
        let seed = environment(name).flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (replay with \(name)=\(seed))")
        return SplitMix(seed: seed, named: name)
    }

    /// The seed it started from and how to replay it, for failure messages.
    private(set) var replay = ""

    private init(seed: UInt64, named name: String) {
        self.init(seed: seed)
        replay = "seed \(seed); replay with \(name)=\(seed)"
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
