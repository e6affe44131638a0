import BeeHiveRouter
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// Routers whose routes cover every kind of pattern part, reading URLs this router's way and JLRoutes' way.
/// (Made before the fuzzer starts: top-level code runs in order.)
let routers: [Router] = [RouterConfiguration(), RouterConfiguration(alwaysTreatsHostAsPathComponent: true, readsURLsLikeJLRoutes: true)]
    .map { configuration in
        let router = Router(configuration: configuration)
        for pattern in ["/", "/:a", "/:a/:b", "/user/view/:id", "/files/*", "/:a#/:b/*", "/x/y#", "/caf%C3%A9/:c", "/a(/b(/:c))"] {
            _ = try? router.addRoute(pattern) { _ in false }
        }
        _ = try? router.addRoute("/:p/*", scheme: "app")
        router.setFallsBackToGlobalRoutes(true, forScheme: "app")
        return router
    }

/// One fuzz input: a URL, matched and routed (every handler declines but the last) by each router. Besides
/// crashes and sanitizer reports, it checks that `canRoute` agrees with `match`, that a match carries the URL,
/// and that interceptors see components that do not contain a `/`.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let url = String(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size), as: UTF8.self)
    for router in routers {
        let match = router.match(url)
        require(router.canRoute(url) == (match != nil), "canRoute disagrees with match for \(url.debugDescription)")
        if let match { require(match.parameters.url == url, "the match lost the URL") }
        do {
            let result = try router.route(url)
            switch result {
            case .handled(let handled): require(handled.parameters.url == url, "the handled match lost the URL")
            case .unmatched(let request):
                require(request.url == url, "the request lost the URL")
                _ = request.pathComponents.count
            case .rejected: require(false, "no interceptor, yet rejected")
            }
        } catch {
            require(false, "routing without interceptors threw \(error)")
        }
        _ = match?.parameters.description
    }
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("URL reader invariant broken: \(message())") }
}

exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))
