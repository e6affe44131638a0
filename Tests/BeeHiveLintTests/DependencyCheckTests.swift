import Foundation
import Glibc
import Testing

@testable import BeeHiveLint

/// lint's check of the modules a `depends=` attribute names: the runtime matches a dependency against the
/// registered modules' names, `Module.Type` with every enclosing type, so lint only asks that the type exists.
@Suite(.timeLimit(.minutes(5)))
struct DependencyCheckTests {
    /// Swift's nominal type descriptors, as the symbol table of a Swift library lists them: `Shop.Checkout` and
    /// `Shop.Payments` (classes) and `Shop.Outer.Inner` (a class nested in a struct, registered in code).
    static let descriptors = """
        __attribute__((used)) const char checkout[4] __asm__("$s4Shop8CheckoutCMn") = {0};
        __attribute__((used)) const char payments[4] __asm__("$s4Shop8PaymentsCMn") = {0};
        __attribute__((used)) const char inner[4] __asm__("$s4Shop5OuterV5InnerCMn") = {0};

        """

    private func findings(dependencies: String) throws -> [LintFinding.Kind] {
        let path = try GeneratedELF(source: """
            #include <beehive.h>
            \(Self.descriptors)
            BeeHiveModuleDepends(Shop.Checkout, normal, 0, sync, \(dependencies))
            BeeHiveMod(Shop.Payments)

            """).write()
        defer { unlink(path) }
        // The library is built without the BeeHive note; that finding is not what these tests are about.
        return Linter.lint(files: [path]).findings.map(\.kind).filter { $0 != .missingNote }
    }

    @Test func nestedModuleTypeIsAProvidedDependency() throws {
        #expect(try findings(dependencies: #""Shop.Outer.Inner,Shop.Payments""#) == [])
    }

    @Test func dependencyThatNothingDefinesIsStillReported() throws {
        #expect(
            try findings(dependencies: #""Shop.Outer.Innr""#)
                == [.typeNotFound(role: .moduleDependency, name: "Shop.Outer.Innr", suggestion: "Shop.Outer.Inner")])
    }
}
