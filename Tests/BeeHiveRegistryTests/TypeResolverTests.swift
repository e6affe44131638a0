@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

protocol ResolvableModule: AnyObject {
    init()
}

final class TopLevelModule: ResolvableModule {
    init() {}
}

final class NotAModule {}

struct StructModule {}

enum Namespace {
    final class NestedModule: ResolvableModule {
        init() {}
    }
}

/// `_typeByName("Module.Type")` resolves top-level classes only; everything else needs a mangled name.
@Suite struct TypeResolverTests {
    let origin = RecordOrigin(objectPath: "/app/lib/libShop.so", section: SectionName.modules, offset: 12)

    @Test func topLevelClassResolvesAndConforms() throws {
        let type = try TypeResolver.resolve("BeeHiveRegistryTests.TopLevelModule", as: ResolvableModule.Type.self).get()
        #expect(ObjectIdentifier(type) == ObjectIdentifier(TopLevelModule.self))
        #expect(TypeResolver.type(named: "BeeHiveRegistryTests.TopLevelModule") == TopLevelModule.self)
    }

    @Test(arguments: ["BeeHiveRegistryTests.StructModule", "BeeHiveRegistryTests.Namespace.NestedModule", "Nowhere.Module", ""])
    func otherFormsDoNotResolve(name: String) {
        let result = TypeResolver.resolve(name, as: ResolvableModule.Type.self, origin: origin)
        guard case .failure(let diagnostic) = result else {
            Issue.record("\(name) resolved")
            return
        }
        #expect(diagnostic.kind == .unresolvedType(name: name))
        #expect(diagnostic.objectPath == "/app/lib/libShop.so" && diagnostic.section == SectionName.modules)
        #expect(diagnostic.message.contains("top-level classes"))
    }

    @Test func mangledNamesResolveStructsAndNestedTypes() {
        #expect(TypeResolver.type(named: "20BeeHiveRegistryTests12StructModuleV") == StructModule.self)
        #expect(TypeResolver.type(named: "20BeeHiveRegistryTests9NamespaceO12NestedModuleC") == Namespace.NestedModule.self)
    }

    /// Each of these crashed the process inside the runtime's lookup before the names were screened.
    @Test(arguments: ["$", "$0", "$00", "$Xp", "$\0\0Shop.CartService", "Si\u{1}", "App.\u{7F}Service"])
    func namesTheRuntimeWouldMisreadAreRefused(name: String) {
        #expect(TypeResolver.type(named: name) == nil)
        guard case .failure(let diagnostic) = TypeResolver.resolve(name, as: ResolvableModule.Type.self, origin: origin) else {
            Issue.record("\(name) resolved")
            return
        }
        #expect(diagnostic.kind == .unresolvedType(name: name))
    }

    @Test func classThatDoesNotConformIsReported() {
        let result = TypeResolver.resolve("BeeHiveRegistryTests.NotAModule", as: ResolvableModule.Type.self, origin: origin)
        guard case .failure(let diagnostic) = result else {
            Issue.record("NotAModule passed as a ResolvableModule")
            return
        }
        #expect(diagnostic.kind == .nonConformingType(name: "BeeHiveRegistryTests.NotAModule", expected: "ResolvableModule.Type"))
        #expect(diagnostic.objectPath == "/app/lib/libShop.so")
    }
}
