import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What the macros refuse, and that they say why at compile time instead of writing a record that cannot work.
@Suite struct MacroDiagnosticTests {
    @Test(arguments: [
        ("@BeeHiveModule final class Box<T> {}", "'Box' is generic"),
        ("struct Box<T> { @BeeHiveModule final class Inner {} }", "'Inner' is nested in generic type"),
        ("func make() { @BeeHiveModule final class Local {} }", "'Local' is a local type"),
        ("@BeeHiveModule private final class Hidden {}", "'Hidden' is private or fileprivate"),
        ("private enum Outer { @BeeHiveModule final class Inner {} }", "'Outer' is private or fileprivate"),
        ("private extension Outer { @BeeHiveModule final class Inner {} }", "'Inner' is private or fileprivate"),
        ("@BeeHiveModule final class Café {}", "'Café' is not an ASCII identifier"),
        ("@BeeHiveModule protocol Module {}", "@BeeHiveModule can only be attached to a class, struct, enum or actor declaration"),
        ("extension Array<Int> { @BeeHiveModule final class Inner {} }", "types nested in 'extension Array<Int>' cannot be annotated"),
        ("@BeeHiveModule(priority: basePriority) final class M {}", "'priority' must be an integer literal"),
        ("@BeeHiveModule(priority: 1_000_000_000_000_000_000) final class M {}", "'priority' must fit in 18 decimal digits"),
        ("@BeeHiveModule(async: isAsync) final class M {}", "'async' must be true or false"),
        ("@BeeHiveModule(onDemand: lazily) final class M {}", "'onDemand' must be true or false"),
        ("@BeeHiveModule(level: Level.early) final class M {}", "'early' is not a valid level"),
        ("@BeeHiveModule(dependencies: NetworkModule.self) final class M {}", "'dependencies' must be an array of module types"),
        ("@BeeHiveModule(dependencies: modules) final class M {}", "'dependencies' must be an array of module types"),
        (#"@BeeHiveModule(dependencies: ["Shop.NetworkModule"]) final class M {}"#, #"'"Shop.NetworkModule"' must name a module type"#),
        ("@BeeHiveModule(dependencies: [Box<Int>.self]) final class M {}", "'Box<Int>.self' must name a module type"),
        ("@BeeHiveService(HomeService.self, scope: .named) final class S {}", "scope .named needs a name"),
        (#"@BeeHiveService(HomeService.self, name: "a b") final class S {}"#, #"service name "a b" must be non-empty"#),
        ("@BeeHiveService(service) final class S {}", "'service' must name the service protocol"),
        ("@BeeHiveService((HomeService & Other).self) final class S {}", "must name the service protocol"),
        (#"@BeeHiveRoute("/a b") final class R {}"#, #"route pattern "/a b" must be non-empty"#),
        (#"@BeeHiveRoute("/a|b") final class R {}"#, #"route pattern "/a|b" must be non-empty"#),
        (#"@BeeHiveRoute("/\(path)") final class R {}"#, "must be a string literal without interpolation"),
        (#"@BeeHiveRoute("/a", scheme: "1app") final class R {}"#, #"scheme "1app" must start with an ASCII letter"#),
        (#"@BeeHiveTarget("") final class T {}"#, #"target name "" must be non-empty"#),
    ])
    func refusesWithAReason(source: String, message: String) {
        let expansion = expandedRecords(source)
        #expect(expansion.records.isEmpty)
        #expect(expansion.errors.count == 1)
        #expect(expansion.errors.first?.contains(message) == true, "\(expansion.errors)")
    }

    @Test func diagnosticPointsAtTheGenericParameters() {
        assertExpansion(
            "@BeeHiveModule final class Box<T> {}",
            expandedSource: "final class Box<T> {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "'Box' is generic; the runtime cannot create a generic type from its name: annotate a non-generic subclass or wrapper",
                    line: 1, column: 31)
            ])
    }
}
