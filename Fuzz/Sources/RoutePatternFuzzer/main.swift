import BeeHiveRouter
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

/// One fuzz input: a route pattern, read both ways (groups inside components, and JLRoutes' groups as
/// components). Besides crashes and sanitizer reports, it checks the parser's promises: a refusal has a message;
/// an accepted pattern expands to at most the limit of distinct patterns, each of which parses to itself, and a
/// router holding the pattern matches a URL built from each expansion.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size), as: UTF8.self)
    for options in [RoutePattern.Options(), .optionalGroupsAreComponents] {
        let pattern: RoutePattern
        do {
            pattern = try RoutePattern(text, options: options)
        } catch {
            require(error.pattern == text && !error.message.isEmpty, "refusal without a message: \(error)")
            continue
        }
        let expansions = pattern.expandedPatterns
        require(!expansions.isEmpty && expansions.count <= RoutePattern.maximumExpansionCount, "expansion count \(expansions.count)")
        require(Set(expansions).count == expansions.count, "duplicate expansions: \(expansions)")
        let router = Router(configuration: RouterConfiguration(patternOptions: options))
        do {
            try router.addRoute(text)
        } catch {
            require(false, "the router refuses a pattern RoutePattern accepts: \(error)")
        }
        for expansion in expansions {
            require(expansion.utf8.first == UInt8(ascii: "/"), "expansion \(expansion.debugDescription) does not start with /")
            do {
                require(try RoutePattern(expansion).expandedPatterns == [expansion], "expansion \(expansion.debugDescription) reads differently")
            } catch {
                require(false, "expansion \(expansion.debugDescription) is refused: \(error)")
            }
            // Variables become `x`, the wildcard nothing; the path and the fragment path are built apart. Split on
            // scalars as the pattern is (a combining mark after `/` must not hide it).
            let url = expansion.unicodeScalars.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map { part in
                part.split(separator: "/", omittingEmptySubsequences: false).map { scalars in
                    let component = Substring(scalars)
                    return component.first == ":" ? "x" : component == "*" ? "" : String(component)
                }.joined(separator: "/")
            }.joined(separator: "#")
            require(router.match(url) != nil, "\(url.debugDescription) built from \(expansion.debugDescription) does not match")
        }
        require(router.removeRoutes(withPattern: text) == 1 && router.routes().isEmpty, "removal left routes behind")
    }
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("route pattern invariant broken: \(message())") }
}
