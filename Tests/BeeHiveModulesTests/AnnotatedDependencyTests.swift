@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

/// `depends=` in a module record reaches the manager: the module launches after the modules it names, and a
/// dependency nothing registers stops the launch like one declared in code.
@Suite struct AnnotatedDependencyTests {
    private func update(_ texts: [String]) -> RegistryUpdate {
        let bytes = Array(texts.joined(separator: "\0").utf8) + [0]
        let parsed = RecordParser.records(inSection: SectionName.modules, bytes: bytes, objectPath: "/opt/app/libshop.so")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        var update = RegistryUpdate()
        update.added = parsed.records
        return update
    }

    @Test func annotatedDependenciesOrderTheLaunch() async throws {
        let (manager, recorder) = makeManager()
        // Alpha outranks Beta by priority, but needs it.
        try manager.apply(update([
            "beehive:1|module|BeeHiveModulesTests.AlphaModule|level=normal|priority=100|async=0|depends=BeeHiveModulesTests.BetaModule",
            "beehive:1|module|BeeHiveModulesTests.BetaModule",
        ]))
        #expect(manager.modules.map(\.name) == ["BeeHiveModulesTests.BetaModule", "BeeHiveModulesTests.AlphaModule"])
        #expect(manager.modules.last?.dependencies == ["BeeHiveModulesTests.BetaModule"])
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .setUp) == ["BetaModule", "AlphaModule"])
    }

    @Test func missingAnnotatedDependencyIsReported() {
        let (manager, _) = makeManager()
        #expect {
            try manager.apply(self.update([
                "beehive:1|module|BeeHiveModulesTests.GammaModule|depends=BeeHiveModulesTests.DeltaModule,Nowhere.Module"
            ]))
            try manager.start()
        } throws: { error in
            guard case ModuleError.missingDependency(let module, let dependency) = error else { return false }
            return module == "BeeHiveModulesTests.GammaModule" && dependency == "BeeHiveModulesTests.DeltaModule"
        }
    }
}
