@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The router against ``OracleRouter``, a plain reading of docs/routing.md, on random tables and URLs: whether a
/// URL is handled, by which route, with which parameters, and which handlers were tried before, in order.
///
/// Seeded: the seed is printed, and `BEEHIVE_ORACLE_SEED=<seed>` replays a run. A disagreement is shrunk to the
/// fewest table operations that still disagree before it is reported.
@Suite struct OracleTests {
    /// One step of building a table, replayed on both routers.
    enum Operation: CustomStringConvertible {
        case add(OracleRouter.Route)
        /// Removes the route added by the operation with this tag, by its `RouteID`.
        case remove(tag: Int)
        case removePattern(String, scheme: String?)
        case fallsBack(Bool, scheme: String)
        case addScheme(String)
        case setUnmatchedHandler(scheme: String?)
        case intercept(tag: Int, scheme: String?, OracleRouter.Interceptor)

        var description: String {
            switch self {
            case .add(let route):
                let scheme = route.scheme.map { ", scheme: \($0.debugDescription)" } ?? ""
                return "route \(route.tag): \(route.pattern.debugDescription)\(scheme), priority \(route.priority), "
                    + "\(route.behaviour), options \(route.options.rawValue)"
            case .remove(let tag): return "removeRoute(route \(tag))"
            case .removePattern(let pattern, let scheme): return "removeRoutes(withPattern: \(pattern.debugDescription), scheme: \(scheme ?? "nil"))"
            case .fallsBack(let fallsBack, let scheme): return "setFallsBackToGlobalRoutes(\(fallsBack), forScheme: \(scheme.debugDescription))"
            case .addScheme(let scheme): return "addScheme(\(scheme.debugDescription))"
            case .setUnmatchedHandler(let scheme): return "setUnmatchedHandler(forScheme: \(scheme ?? "nil"))"
            case .intercept(let tag, let scheme, let rule): return "interceptor \(tag) (scheme \(scheme ?? "nil")): \(rule)"
            }
        }
    }

    struct Case {
        var configuration: RouterConfiguration
        var operations: [Operation]
    }

    /// The handlers' tries, in order.
    final class Log: Sendable {
        private let tries = Mutex<[OracleRouter.Try]>([])
        private let unmatched = Mutex<String?>(nil)
        func unmatchedHandlerCalled(_ table: String) { unmatched.withLock { $0 = table } }
        func takeUnmatched() -> String? { unmatched.withLock { name in defer { name = nil }; return name } }
        func append(_ tag: Int, _ parameters: RouteParameters) {
            var snapshot: [String: String] = [:]
            for key in parameters.keys {
                if let value = parameters.value(forKey: key) { snapshot[key] = OracleRouter.text(of: value) }
            }
            tries.withLock { $0.append(OracleRouter.Try(tag: tag, parameters: snapshot)) }
        }
        func take() -> [OracleRouter.Try] { tries.withLock { tries in defer { tries = [] }; return tries } }
    }

    /// Both routers built from the same operations.
    struct Pair {
        let router: Router
        var oracle = OracleRouter()
        let log = Log()
        var tagOfRoute: [RouteID: Int] = [:]
        var routeOfTag: [Int: RouteID] = [:]
        var tagOfInterceptor: [InterceptorID: Int] = [:]

        init(_ testCase: Case) {
            router = Router(configuration: testCase.configuration)
            oracle.configuration = testCase.configuration
            for operation in testCase.operations { apply(operation) }
        }

        private mutating func apply(_ operation: Operation) {
            switch operation {
            case .add(let route):
                router.configuration.patternOptions = route.options
                let log = log
                let tag = route.tag
                let id: RouteID?
                switch route.behaviour {
                case .accepts, .declines:
                    let accepts = route.behaviour == .accepts
                    id = try? router.addRoute(route.pattern, scheme: route.scheme, priority: route.priority) { parameters in
                        log.append(tag, parameters)
                        return accepts
                    }
                case .typed:
                    id = try? router.addRoute(route.pattern, scheme: route.scheme, priority: route.priority, as: OracleTypedRoute.self) {
                        _, parameters in
                        log.append(tag, parameters)
                        return true
                    }
                }
                // A pattern the router refuses is registered nowhere.
                guard let id else { return }
                tagOfRoute[id] = tag
                routeOfTag[tag] = id
                oracle.add(route)
            case .remove(let tag):
                guard let id = routeOfTag[tag] else { return }
                router.removeRoute(id)
                oracle.remove(tag: tag)
            case .removePattern(let pattern, let scheme):
                router.removeRoutes(withPattern: pattern, scheme: scheme)
                oracle.removeRoutes(withPattern: pattern, scheme: scheme)
            case .fallsBack(let fallsBack, let scheme):
                router.setFallsBackToGlobalRoutes(fallsBack, forScheme: scheme)
                oracle.setFallsBack(fallsBack, scheme: scheme)
            case .setUnmatchedHandler(let scheme):
                let log = log
                let name = scheme?.lowercased() ?? "global"
                router.setUnmatchedHandler({ _ in log.unmatchedHandlerCalled(name) }, forScheme: scheme)
                oracle.setUnmatchedHandler(scheme: scheme)
            case .addScheme(let scheme):
                router.addScheme(scheme)
                if oracle.schemes[scheme.lowercased()] == nil { oracle.schemes[scheme.lowercased()] = OracleRouter.Table() }
            case .intercept(let tag, let scheme, let rule):
                let id = router.addInterceptor(scheme: scheme) { request in
                    let first = request.pathComponents.first
                    switch rule {
                    case .rejectsFirst(let component): return first == component ? .reject(reason: "test") : .proceed
                    case .redirectsFirst(let component, let target): return first == component ? .redirect(to: target) : .proceed
                    }
                }
                tagOfInterceptor[id] = tag
                oracle.interceptors.append((tag, scheme?.lowercased(), rule))
            }
        }

        /// The router's outcome and tries, in the oracle's terms.
        func route(_ url: String) -> (outcome: OracleRouter.Outcome, tries: [OracleRouter.Try]) {
            _ = log.take()
            _ = log.takeUnmatched()
            let outcome: OracleRouter.Outcome
            do {
                switch try router.route(url) {
                case .handled(let match): outcome = .handled(tag: tagOfRoute[match.route.id] ?? -1)
                case .unmatched: outcome = .unmatched(handler: log.takeUnmatched())
                case .rejected(let rejection): outcome = .rejected(interceptor: tagOfInterceptor[rejection.interceptor] ?? -1)
                }
            } catch {
                switch error {
                case .redirectLoop: outcome = .redirectLoop
                case .tooManyRedirects: outcome = .tooManyRedirects
                case .pluginUnavailable: outcome = .unmatched(handler: "plugin unavailable")
                }
            }
            return (outcome, log.take())
        }

        /// How each routed `url` when they disagree, else nil; and what kind of outcome the router gave.
        func compare(on url: String) -> (kind: String, disagreement: String?) {
            let actual = route(url)
            let kind = OracleTests.kind(of: actual.outcome, tries: actual.tries)
            let expected = oracle.route(url)
            // `match(_:)` and `canRoute(_:)` run no interceptor and no handler: the first route that fits.
            let matched = router.match(url).map { tagOfRoute[$0.route.id] ?? -1 }
            let canRoute = router.canRoute(url)
            let first = oracle.firstMatch(url)
            guard actual.outcome != expected.outcome || actual.tries != expected.tries || matched != first || canRoute != (first != nil)
            else { return (kind, nil) }
            return (kind, """
                router: \(actual.outcome)
                  tried \(actual.tries)
                  match(_:) \(matched.map { "route \($0)" } ?? "nil"), canRoute(_:) \(canRoute)
                oracle (docs/routing.md): \(expected.outcome)
                  tried \(expected.tries)
                  first route that fits: \(first.map { "route \($0)" } ?? "none")
                """)
        }
    }

    /// Removes operations one at a time while the URL still makes the routers disagree.
    static func shrink(_ testCase: Case, url: String) -> (Case, String) {
        var smallest = testCase
        var report = Pair(testCase).compare(on: url).disagreement ?? ""
        var shrunk = true
        while shrunk {
            shrunk = false
            for index in smallest.operations.indices.reversed() {
                var candidate = smallest
                candidate.operations.remove(at: index)
                if let disagreement = Pair(candidate).compare(on: url).disagreement {
                    smallest = candidate
                    report = disagreement
                    shrunk = true
                }
            }
        }
        return (smallest, report)
    }

    /// 100,000 cases per run, in four parts that run in parallel.
    static let parts = 4
    static let tablesPerPart = 500
    static let urlsPerTable = 50
    static let seed: UInt64 = {
        let seed = getenv("BEEHIVE_ORACLE_SEED").flatMap { UInt64(String(cString: $0)) } ?? UInt64.random(in: 0...UInt64.max)
        print("OracleTests: seed \(seed) (replay with BEEHIVE_ORACLE_SEED=\(seed))")
        return seed
    }()

    @Test(arguments: 0..<parts) func theRouterAgreesWithTheOracle(part: Int) {
        let seed = Self.seed
        var generator = SplitMix(seed: seed &+ UInt64(part))
        let clock = ContinuousClock()
        let start = clock.now
        var cases = 0
        var outcomes: [String: Int] = [:]
        for table in 0..<Self.tablesPerPart {
            let testCase = Generator.table(using: &generator)
            let pair = Pair(testCase)
            for _ in 0..<Self.urlsPerTable {
                let url = Generator.url(for: pair.oracle, using: &generator)
                cases += 1
                let (kind, disagreement) = pair.compare(on: url)
                outcomes[kind, default: 0] += 1
                guard disagreement != nil else { continue }
                let (smallest, report) = Self.shrink(testCase, url: url)
                let configuration = smallest.configuration
                Issue.record(
                    """
                    The router and the oracle disagree (seed \(seed), part \(part), table \(table); replay with BEEHIVE_ORACLE_SEED=\(seed)).
                    configuration: decodesPlusSymbols \(configuration.decodesPlusSymbols), \
                    alwaysTreatsHostAsPathComponent \(configuration.alwaysTreatsHostAsPathComponent), \
                    readsURLsLikeJLRoutes \(configuration.readsURLsLikeJLRoutes)
                    \(smallest.operations.map { "  \($0)" }.joined(separator: "\n"))
                    url: \(url.debugDescription)
                    \(report)
                    """)
                return
            }
        }
        print("OracleTests: part \(part), \(cases) cases in \(clock.now - start): \(outcomes.sorted { $0.key < $1.key })")
        #expect(cases * Self.parts >= 100_000)
        // The generator must reach every kind of outcome often, or agreeing says little.
        for kind in [
            "handled first", "handled after declines", "unmatched", "unmatched after declines", "unmatched-URL handler called", "rejected",
            "redirect loop",
        ] {
            #expect(outcomes[kind, default: 0] >= cases / 1_000, "\(kind): \(outcomes[kind, default: 0]) of \(cases)")
        }
    }

    static func kind(of outcome: OracleRouter.Outcome, tries: [OracleRouter.Try]) -> String {
        switch outcome {
        case .handled: tries.count > 1 ? "handled after declines" : "handled first"
        case .unmatched(let handler?): "unmatched-URL handler called"
        case .unmatched: tries.isEmpty ? "unmatched" : "unmatched after declines"
        case .rejected: "rejected"
        case .redirectLoop: "redirect loop"
        case .tooManyRedirects: "too many redirects"
        }
    }

    // MARK: Generating tables and URLs

    enum Generator {
        static let literals = ["a", "b", "ab", "user", "A", "café", "caf%C3%A9", "x+y", "%zz", "%FF", "%23", "localhost", "v.w", "1"]
        static let values = ["42", "-7", "x", "café", "caf%C3%A9", "a+b", "a%2Bb", "%zz", "%FF", "%2F", "%23", "007", "a b", "LOCALHOST"]
        static let schemes: [String?] = [nil, "app", "thing", "App"]

        static func table<G: RandomNumberGenerator>(using generator: inout G) -> Case {
            var configuration = RouterConfiguration()
            configuration.decodesPlusSymbols = Int.random(in: 0..<4, using: &generator) != 0
            configuration.alwaysTreatsHostAsPathComponent = Int.random(in: 0..<8, using: &generator) == 0
            configuration.readsURLsLikeJLRoutes = Int.random(in: 0..<4, using: &generator) == 0
            var operations: [Operation] = []
            var patterns: [(String, String?)] = []
            var addedTags: [Int] = []
            for tag in 0..<Int.random(in: 1...9, using: &generator) {
                switch Int.random(in: 0..<20, using: &generator) {
                case 0 where !addedTags.isEmpty:
                    operations.append(.remove(tag: addedTags.randomElement(using: &generator)!))
                case 1 where !patterns.isEmpty:
                    let (pattern, scheme) = patterns.randomElement(using: &generator)!
                    operations.append(.removePattern(pattern, scheme: scheme))
                case 2:
                    operations.append(.fallsBack(Bool.random(using: &generator), scheme: ["app", "thing", "APP"].randomElement(using: &generator)!))
                case 3:
                    operations.append(.addScheme(["app", "thing"].randomElement(using: &generator)!))
                case 6:
                    operations.append(.setUnmatchedHandler(scheme: [nil, "app", "thing"].randomElement(using: &generator)!))
                case 4, 5:
                    let scheme = [nil, nil, "app", "thing", "App"].randomElement(using: &generator)!
                    // Common first components, so that interceptors act often.
                    let first = ["a", "b", "user", "ab", "#"].randomElement(using: &generator)!
                    let target =
                        Bool.random(using: &generator)
                        ? "app://\(first)/again"
                        : url(from: randomPattern(typed: false, using: &generator), using: &generator)
                    let rule: OracleRouter.Interceptor =
                        Bool.random(using: &generator) ? .rejectsFirst(first) : .redirectsFirst(first, to: target)
                    operations.append(.intercept(tag: tag, scheme: scheme, rule))
                default:
                    let behaviour: OracleRouter.Behaviour = [.accepts, .accepts, .declines, .declines, .typed].randomElement(using: &generator)!
                    var options: RoutePattern.Options = []
                    if Int.random(in: 0..<4, using: &generator) == 0 { options.insert(.optionalGroupsAreComponents) }
                    if Int.random(in: 0..<4, using: &generator) == 0 { options.insert(.trailingSlashIsComponent) }
                    let pattern =
                        !patterns.isEmpty && Int.random(in: 0..<5, using: &generator) == 0
                        ? patterns.randomElement(using: &generator)!.0
                        : randomPattern(typed: behaviour == .typed, using: &generator)
                    let scheme = schemes.randomElement(using: &generator)!
                    let priority = [0, 0, 0, 1, -1, 5].randomElement(using: &generator)!
                    operations.append(.add(OracleRouter.Route(
                        tag: tag, pattern: pattern, options: options, scheme: scheme, priority: priority, behaviour: behaviour)))
                    patterns.append((pattern, scheme))
                    addedTags.append(tag)
                }
            }
            return Case(configuration: configuration, operations: operations)
        }

        /// A pattern of literals, variables, optional groups (whole components, inside a component, nested), a
        /// fragment path and a trailing `*`, with the odd empty component and trailing slash.
        static func randomPattern<G: RandomNumberGenerator>(typed: Bool, using generator: inout G) -> String {
            var variable = 0
            var needsN = typed
            func piece(depth: Int) -> String {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0...3: return "/" + literals.randomElement(using: &generator)!
                case 4...6:
                    if needsN && Bool.random(using: &generator) {
                        needsN = false
                        return "/:n"
                    }
                    variable += 1
                    return "/:v\(variable)"
                case 7 where depth < 2:
                    return "(" + (0..<Int.random(in: 1...2, using: &generator)).map { _ in piece(depth: depth + 1) }.joined() + ")"
                case 8 where depth < 2:
                    return "/" + literals.randomElement(using: &generator)! + "(" + ["s", "x", "/b"].randomElement(using: &generator)! + ")"
                default: return "/" + literals.randomElement(using: &generator)!
                }
            }
            var text = (0..<Int.random(in: 0...3, using: &generator)).map { _ in piece(depth: 0) }.joined()
            if needsN { text += "/:n" }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                text += "#" + (0..<Int.random(in: 0...2, using: &generator)).map { _ in piece(depth: 1) }.joined()
            }
            switch Int.random(in: 0..<12, using: &generator) {
            case 0, 1: text += "/*"
            case 2: text += "/"
            case 3: text = "/" + text
            default: break
            }
            return text
        }

        /// A URL that some expansion of the table's routes nearly or exactly fits, or one built from pieces.
        static func url<G: RandomNumberGenerator>(for oracle: OracleRouter, using generator: inout G) -> String {
            if Int.random(in: 0..<8, using: &generator) == 0 {
                // Text that only a URL reader's corner cases make sense of.
                let pieces = [
                    "a", "user", "A", "/", "//", "?", "#", "#/", "%41", "%2", "+", "=", "&", "@", ":", "[", "]", "localhost", "x.y",
                    "app:", "app://", ":8080", "%23",
                ]
                return (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let routes = oracle.global.routes + oracle.schemes.values.flatMap(\.routes)
            guard let route = routes.randomElement(using: &generator), Int.random(in: 0..<6, using: &generator) != 0 else {
                return url(from: randomPattern(typed: false, using: &generator), using: &generator)
            }
            // Mostly the route's own scheme, in some case, so that its table is reached.
            let scheme =
                Int.random(in: 0..<4, using: &generator) == 0
                ? nil : route.scheme.map { Bool.random(using: &generator) ? $0 : $0.uppercased() } ?? ""
            return url(from: oracle.expansionsOfRoute[route.tag]!, scheme: scheme, using: &generator)
        }

        /// A URL for one of the expansions: its literals (sometimes escaped, changed or left out), values
        /// for its variables, components for its `*`, and a random scheme, authority, query and fragment.
        static func url<G: RandomNumberGenerator>(from pattern: String, using generator: inout G) -> String {
            url(from: OracleRouter.expansions(of: pattern, options: []), scheme: nil, using: &generator)
        }

        static func url<G: RandomNumberGenerator>(
            from expansions: [OracleRouter.Expansion], scheme: String?, using generator: inout G
        ) -> String {
            let segments = expansions.randomElement(using: &generator)?.segments ?? []
            // Half the URLs are near misses: one component changed, dropped or doubled.
            let missAt = Bool.random(using: &generator) ? Int.random(in: 0...segments.count, using: &generator) : -1
            var path: [String] = []
            var fragment: [String]?
            for (position, segment) in segments.enumerated() {
                var components: [String]
                switch segment {
                case .literal(let literal): components = [escaped(literal, using: &generator)]
                case .variable(let name):
                    let integers = ["42", "-7", "007"]
                    components = [(name == "n" && Bool.random(using: &generator) ? integers : values).randomElement(using: &generator)!]
                case .wildcard: components = (0..<Int.random(in: 0...2, using: &generator)).map { _ in values.randomElement(using: &generator)! }
                case .marker:
                    fragment = []
                    continue
                }
                if position == missAt {
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: components = [literals.randomElement(using: &generator)!]
                    case 1: components = []
                    case 2: components += components
                    default: components = components.map { $0 + "%" }
                    }
                }
                if fragment != nil { fragment! += components } else { path += components }
            }
            let scheme = scheme ?? ["app", "APP", "thing", "other", ""].randomElement(using: &generator)!
            var text = scheme.isEmpty ? "" : scheme + ":"
            let firstNamesAMachine = path.first.map { $0.contains(".") || $0.lowercased() == "localhost" } ?? false
            // A first component that names a machine is a path component only after `scheme:/`, mostly.
            let form = firstNamesAMachine && Bool.random(using: &generator) ? 0 : Int.random(in: 0..<12, using: &generator)
            switch form {
            case 0: text += path.isEmpty ? "/" : "/" + path.joined(separator: "/")
            case 1:
                let machine = ["example.com", "localhost", "[::1]", "LocalHost"].randomElement(using: &generator)!
                text += "//" + ["u@", ""].randomElement(using: &generator)! + machine + [":8080", ""].randomElement(using: &generator)!
                    + "/" + path.joined(separator: "/")
            default:
                let host = path.first ?? ""
                let port = Int.random(in: 0..<8, using: &generator) == 0 ? ":8080" : ""
                // The odd empty component.
                let rest = path.dropFirst().map { Int.random(in: 0..<16, using: &generator) == 0 ? "/" + $0 : $0 }
                text += "//" + host + port + (rest.isEmpty ? "" : "/" + rest.joined(separator: "/"))
            }
            if Int.random(in: 0..<12, using: &generator) == 0 { text += "/" }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                let items = ["k=1", "k=2", "=v", "flag", "n=5", "v1=q", "a=%41+b", "k=%FF", ""]
                text += "?" + (0..<Int.random(in: 1...3, using: &generator)).map { _ in items.randomElement(using: &generator)! }.joined(separator: "&")
            }
            if let fragment {
                text += "#" + (fragment.isEmpty && Bool.random(using: &generator) ? "" : "/" + fragment.joined(separator: "/"))
                if Int.random(in: 0..<4, using: &generator) == 0 { text += "?f=1&k=3" }
            } else {
                switch Int.random(in: 0..<12, using: &generator) {
                case 0: text += "#top"
                case 1: text += "#a=1&k=9"
                case 2: text += "#?f=2"
                case 3: text += "#"
                case 4: text += "#/" + (path.last ?? "x")
                default: break
                }
            }
            return text
        }

        /// A component that decodes to the (decoded) literal: as it reads, percent-encoded, or, rarely, with its
        /// case changed.
        static func escaped<G: RandomNumberGenerator>(_ literal: String, using generator: inout G) -> String {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: return literal.utf8.map { "%" + String($0, radix: 16, uppercase: Bool.random(using: &generator)) }.joined()
            case 1 where Int.random(in: 0..<4, using: &generator) == 0: return literal.uppercased()
            default:
                // The bytes a URL reader splits on, escaped.
                return literal.utf8.map { byte in
                    "#?/% ".utf8.contains(byte) ? "%" + String(byte, radix: 16) : String(decoding: [byte], as: UTF8.self)
                }.joined()
            }
        }
    }
}
