import BeeHiveAnnotations
@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

// Annotated with the Swift macro in this test process: the records are read from memory. The dependent module
// outranks both by priority but names them, one top-level and one nested, as metatypes the compiler checks.
@BeeHiveModule(priority: 100, dependencies: [MacroBaseModule.self, BeeHiveModulesTests.MacroModules.NestedModule.self])
final class MacroDependentModule: Recording {}

@BeeHiveModule
final class MacroBaseModule: Recording {}

enum MacroModules {
    @BeeHiveModule(priority: 50)
    final class NestedModule: Recording {}
}

/// `@BeeHiveModule(dependencies:)` end to end: macro, record in this binary, registry, manager, launch order.
@Suite struct MacroDependencyTests {
    @Test func macroDeclaredDependenciesOrderTheLaunch() async throws {
        _ = AnnotationRegistry.shared.refresh()
        let records = AnnotationRegistry.shared.records.filter { $0.text.contains("Macro") }
        #expect(records.count == 3)
        let dependent = try #require(records.first { $0.text.contains("MacroDependentModule") })
        #expect(dependent.payload == .module(ModuleAnnotation(
            typeName: "BeeHiveModulesTests.MacroDependentModule", priority: 100,
            dependencies: ["BeeHiveModulesTests.MacroBaseModule", "BeeHiveModulesTests.MacroModules.NestedModule"])))

        let (manager, recorder) = makeManager()
        var update = RegistryUpdate()
        update.added = records
        manager.apply(update)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .setUp) == ["NestedModule", "MacroBaseModule", "MacroDependentModule"])
    }
}
