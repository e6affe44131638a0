@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

@testable import BeeHiveLint

/// On-demand modules that cannot work as declared, found across the linted files.
@Suite(.timeLimit(.minutes(10))) struct OnDemandLintTests {
    @Test func anOnDemandModuleBesideALaunchModuleIsAFinding() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleOnDemand(Lint.Lazy, normal, 0, sync)
            BeeHiveMod(Lint.Eager)

            """).write()
        defer { unlink(path) }
        let findings = Linter.lint(files: [path]).findings.filter {
            if case .onDemandBesideLaunchModule = $0.kind { true } else { false }
        }
        #expect(findings == [
            LintFinding(
                .onDemandBesideLaunchModule(launchModule: "Lint.Eager"), objectPath: path, section: "beehive_mods",
                record: "beehive:1|module|Lint.Lazy|level=normal|priority=0|async=0|ondemand=1"),
        ])
    }

    @Test func aLaunchModuleNeedingAnOnDemandPluginIsAFinding() throws {
        let plugin = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleOnDemand(Lint.Reports, normal, 0, sync)

            """).write()
        let app = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleDepends(Lint.Shop, normal, 0, sync, "Lint.Reports")
            BeeHiveModuleOnDemandDepends(Lint.Later, normal, 0, sync, "Lint.Reports")

            """).write()
        defer {
            unlink(plugin)
            unlink(app)
        }
        let kinds = Linter.lint(files: [app, plugin]).findings.map(\.kind).filter {
            switch $0 {
            case .onDemandBesideLaunchModule, .launchModuleNeedsOnDemandModule: true
            default: false
            }
        }
        // Lint.Shop waits for a plugin loaded on first use; Lint.Later is on-demand beside a launch module.
        #expect(kinds == [
            .launchModuleNeedsOnDemandModule(dependency: "Lint.Reports", file: plugin),
            .onDemandBesideLaunchModule(launchModule: "Lint.Shop"),
        ])
    }

    @Test func aPluginOfOnDemandModulesAloneIsClean() throws {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            BeeHiveModuleOnDemand(Lint.First, normal, 0, sync)
            BeeHiveModuleOnDemandDepends(Lint.Second, normal, 0, sync, "Lint.First")

            """).write()
        defer { unlink(path) }
        let kinds = Linter.lint(files: [path]).findings.map(\.kind)
        #expect(!kinds.contains {
            switch $0 {
            case .onDemandBesideLaunchModule, .launchModuleNeedsOnDemandModule: true
            default: false
            }
        })
    }
}
