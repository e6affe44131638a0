@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Testing

protocol Indexed {
    static var label: String { get }
}

final class IndexedClass: Indexed {
    static let label = "class"
}

struct IndexedStruct: Indexed {
    static let label = "struct"
}

enum IndexedEnum: Indexed {
    static let label = "enum"
}

struct IndexedOuter {
    final class Inner: Indexed {
        static let label = "nested"
    }
}

struct IndexedGeneric<Value>: Indexed {
    static var label: String { "generic" }
}

final class NotIndexed {}

typealias IndexedAndDescribable = any (Indexed & CustomStringConvertible).Type

/// C annotations name types by `Module.Class` or the macros' mangled form; the index finds them from one pass over
/// the conformance records, and agrees with the runtime's name lookup.
@Suite struct ConformanceIndexTests {
    static let module = "BeeHiveRegistryTests"
    static let prefix = "\(module.utf8.count)\(module)"

    @Test(arguments: [
        ("BeeHiveRegistryTests.IndexedClass", "class"),
        (prefix + "12IndexedClassC", "class"),
        (prefix + "13IndexedStructV", "struct"),
        (prefix + "11IndexedEnumO", "enum"),
        (prefix + "12IndexedOuterV5InnerC", "nested"),
    ])
    func conformingTypesAreFoundByTheirAnnotatedNames(name: String, label: String) throws {
        let type = try #require(ConformanceIndex.indexedType(name, as: (any Indexed.Type).self))
        #expect(type.label == label)
        let looked = try #require(_typeByName(name) as? any Indexed.Type)
        #expect(ObjectIdentifier(type) == ObjectIdentifier(looked))
    }

    @Test(arguments: [
        "BeeHiveRegistryTests.NotIndexed", "BeeHiveRegistryTests.IndexedStruct", "BeeHiveRegistryTests.IndexedOuter.Inner",
        prefix + "14IndexedGenericV", "Nowhere.Type", "",
    ])
    func everythingElseIsLeftToTheNameLookup(name: String) {
        #expect(ConformanceIndex.indexedType(name, as: (any Indexed.Type).self) == nil)
    }

    @Test func onlyExistentialMetatypesOfOneProtocolAreIndexed() {
        #expect(ConformanceIndex.indexedType("BeeHiveRegistryTests.IndexedClass", as: Any.Type.self) == nil)
        #expect(ConformanceIndex.indexedType("BeeHiveRegistryTests.IndexedClass", as: IndexedAndDescribable.self) == nil)
    }

    @Test func resolverTakesTheIndexedType() throws {
        let type = try TypeResolver.resolve(Self.prefix + "13IndexedStructV", as: (any Indexed.Type).self).get()
        #expect(type.label == "struct")
    }
}
