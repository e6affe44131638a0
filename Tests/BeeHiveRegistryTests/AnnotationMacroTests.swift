@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// What the C annotation macros refuse at compile time, with clang and gcc.
@Suite struct AnnotationMacroTests {
    static let compilers = ["clang", "gcc"]

    @Test(.timeLimit(.minutes(10)), arguments: compilers)
    func wellFormedAnnotationsCompileUnderPedanticWarnings(compiler: String) throws {
        let source = """
            #include <beehive.h>
            BeeHiveMod(App.Module)
            BeeHiveModule(App.Other, basic, 3, async)
            BeeHiveModuleDepends(App.Third, normal, -2, sync, "App.Module,App.Other")
            BeeHiveServiceScoped(App.Protocol, App.Service, named, "main")
            BeeHiveRouteScoped("/user/:id", App.Handler, "app", 2)
            BeeHiveTarget(Main, App.Target)
            BeeHiveModuleOnDemand(App.Lazy, basic, 1, sync)
            BeeHiveModuleOnDemandDepends(App.Later, normal, 0, async, "App.Lazy")

            """
        let bytes = try TestLibrary.build(source, compiler: compiler, flags: ["-Wall", "-Wextra", "-pedantic", "-Werror"])
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, _) = try TestLibrary.readAnnotations(of: bytes, in: directory)
        #expect(result.records.count == 8 && result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    /// '|' separates fields: an argument holding one would add fields the macro never checked.
    @Test(.timeLimit(.minutes(10)), arguments: compilers, [
        "BeeHiveMod(App.Module|async=1)",
        "BeeHiveService(App.Protocol, App.Service|scope=singleton)",
        "BeeHiveRoute(\"/user|scheme=evil\", App.Handler)",
        "BeeHiveServiceScoped(App.Protocol, App.Service, named, \"a|b\")",
        "BeeHiveTarget(Main, App.Target|x=1)",
        "BeeHiveModule(App.Module, basic, 1|2, sync)",
        "BeeHiveModuleDepends(App.Module, basic, 1|2, sync, \"App.Network\")",
        "BeeHiveModuleDepends(App.Module, basic, 0, sync, \"App.Network|async=1\")",
        "BeeHiveRouteScoped(\"/a\", App.Handler, \"app\", 1|2)",
        "BeeHiveModuleOnDemand(App.Module|depends=App.X, basic, 0, sync)",
        "BeeHiveModuleOnDemandDepends(App.Module, basic, 0, sync, \"App.Network|ondemand=0\")",
    ])
    func separatorInAnArgumentDoesNotCompile(compiler: String, annotation: String) {
        #expect(throws: ELFImage.Failure.self) {
            try TestLibrary.build("#include <beehive.h>\n\(annotation)\n", compiler: compiler)
        }
    }
}
