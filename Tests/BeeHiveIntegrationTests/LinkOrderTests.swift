import Foundation
import Testing

/// `host` and `host-reordered` are the same program linking the same libraries in opposite orders.
@Suite(.timeLimit(.minutes(60)))
struct LinkOrderTests {
    @Test(arguments: [(FixtureBuilder.Configuration.debug, FixtureBuilder.Linker.lld), (.release, .gold)])
    func resultDoesNotDependOnLinkOrder(configuration: FixtureBuilder.Configuration, linker: FixtureBuilder.Linker) throws {
        let build = try FixtureBuilder.build(FixtureHost.package, configuration, linker: linker)
        let fixtureLibraries = ["libShopKit.so", "libOnlyServices.so", "libPlain.so", "libMalformed.so", "libDuplicateA.so", "libDuplicateB.so"]
        let order = try SystemTools.neededLibraries(build.product("host")).filter(fixtureLibraries.contains)
        let reordered = try SystemTools.neededLibraries(build.product("host-reordered")).filter(fixtureLibraries.contains)
        #expect(Set(order) == Set(fixtureLibraries))
        #expect(order == reordered.reversed(), "the two executables must load the libraries in opposite orders")

        let first = try FixtureHost.run(build, executable: "host")
        let second = try FixtureHost.run(build, executable: "host-reordered")
        let firstPath = build.product("host").resolvingSymlinksInPath().path
        let secondPath = build.product("host-reordered").resolvingSymlinksInPath().path
        #expect(first.replacingPath(firstPath, with: "<host>") == second.replacingPath(secondPath, with: "<host>"))
        #expect(first.records.count == 19)
    }
}
