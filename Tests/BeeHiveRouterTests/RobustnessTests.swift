@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bad input never crashes: depth and size that the input controls never reach the call stack. The deep cases
/// run on a thread with a 512 KiB stack, so a recursion over tens of thousands of levels would overflow it.
@Suite struct RobustnessTests {
    @Test func aRouteOfFiftyThousandComponentsMatchesOnASmallStack() {
        let outcome = Mutex<String>("not run")
        runOnSmallStack {
            let components = (0..<50_000).map { $0 % 2 == 0 ? "a\($0 % 7)" : ":v\($0)" }
            let pattern = "/" + components.joined(separator: "/")
            let url = "/" + (0..<50_000).map { $0 % 2 == 0 ? "a\($0 % 7)" : "x\($0)" }.joined(separator: "/")
            let router = Router()
            do {
                try router.addRoute(pattern)
                try router.addRoute("/a0/*")
                let match = router.match(url)
                outcome.withLock {
                    $0 = "pattern \(match?.route.pattern.text == pattern) v49999 \(match?.parameters["v49999"] ?? "nil")"
                }
            } catch {
                outcome.withLock { $0 = "error \(error)" }
            }
        }
        #expect(outcome.withLock { $0 } == "pattern true v49999 x49999")
    }

    @Test func aURLOfFiftyThousandComponentsIsWalkedOnASmallStack() {
        let outcome = Mutex<String>("not run")
        runOnSmallStack {
            let router = Router()
            _ = try? router.addRoute("/:a/*")
            _ = try? router.addRoute("/:a/:b")
            let url = "/" + Array(repeating: "x", count: 50_000).joined(separator: "/") + "?q=1"
            let match = router.match(url)
            outcome.withLock { $0 = "\(match?.route.pattern.text ?? "nil") \(match?.parameters.wildcardComponents?.count ?? -1)" }
        }
        #expect(outcome.withLock { $0 } == "/:a/* 49999")
    }

    @Test func fiftyThousandNestedOptionalGroupsAreRefusedNamingTheLimit() {
        let outcome = Mutex<RoutePatternError?>(nil)
        runOnSmallStack {
            let pattern = String(repeating: "(/a", count: 50_000) + String(repeating: ")", count: 50_000)
            do throws(RoutePatternError) {
                try Router().addRoute(pattern)
            } catch {
                outcome.withLock { $0 = error }
            }
        }
        let error = outcome.withLock { $0 }
        #expect(error?.reason == .tooManyExpansions(count: 50_001, limit: RoutePattern.maximumExpansionCount))
        #expect(error?.message.contains("RoutePattern.maximumExpansionCount (1024)") == true)
    }

    @Test func fiftyThousandSequentialOptionalGroupsSaturateTheCount() {
        let pattern = "/x" + String(repeating: "(/a)", count: 50_000)
        #expect(throws: RoutePatternError(pattern: pattern, reason: .tooManyExpansions(count: Int.max, limit: 1024))) {
            try RoutePattern(pattern)
        }
    }

    @Test func fiftyThousandUnbalancedBracketsAreRefusedWithTheirOffset() {
        let opened = String(repeating: "(", count: 50_000)
        #expect(throws: RoutePatternError(pattern: opened, reason: .unclosedGroup(offset: 49_999))) { try RoutePattern(opened) }
        let closed = "/a" + String(repeating: ")", count: 50_000)
        #expect(throws: RoutePatternError(pattern: closed, reason: .unopenedGroup(offset: 2))) { try RoutePattern(closed) }
    }

    @Test func aPatternOfFourteenThousandVariablesRegistersAndMatches() throws {
        let pattern = "/" + (0..<14_000).map { ":v\($0)" }.joined(separator: "/")
        let router = Router()
        try router.addRoute(pattern)
        let match = router.match("/" + (0..<14_000).map { "x\($0)" }.joined(separator: "/"))
        #expect(match?.parameters["v13999"] == "x13999")
        #expect(match?.parameters["v0"] == "x0")
    }
}

/// Runs `body` on a new thread with a small stack and waits for it.
func runOnSmallStack(bytes: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, bytes)
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, &attributes, { pointer in
        Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue().body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    pthread_join(thread, nil)
}
