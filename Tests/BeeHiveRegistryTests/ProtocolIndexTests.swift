@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Testing

protocol IndexedProtocol {}

protocol IndexedClassBoundProtocol: AnyObject {}

protocol IndexedRefiningProtocol: IndexedProtocol, CustomStringConvertible {}

class IndexedBase {}

protocol IndexedSubclassProtocol: IndexedBase {}

struct IndexedProtocolHolder {
    protocol Nested {}
}

/// C-annotated services are named by their protocol's dotted name; the index finds the protocol from one pass over
/// the protocol records and gives the existential type the runtime's lookup gives.
@Suite struct ProtocolIndexTests {
    static let module = "BeeHiveRegistryTests"
    static let prefix = "\(module.utf8.count)\(module)"

    @Test(arguments: [
        ("IndexedProtocol", "15IndexedProtocolP_p"),
        ("IndexedClassBoundProtocol", "25IndexedClassBoundProtocolP_p"),
        ("IndexedRefiningProtocol", "23IndexedRefiningProtocolP_p"),
        ("IndexedProtocolHolder.Nested", "21IndexedProtocolHolderV6NestedP_p"),
    ])
    func protocolsAreFoundByTheirDottedNames(name: String, mangled: String) throws {
        let indexed = try #require(ProtocolIndex.indexedExistential(named: "\(Self.module).\(name)"))
        let looked = try #require(_typeByName(Self.prefix + mangled))
        #expect(ObjectIdentifier(indexed) == ObjectIdentifier(looked))
    }

    @Test func theExistentialIsTheCompilersOwn() throws {
        let indexed = try #require(ProtocolIndex.indexedExistential(named: "BeeHiveRegistryTests.IndexedClassBoundProtocol"))
        #expect(ObjectIdentifier(indexed) == ObjectIdentifier((any IndexedClassBoundProtocol).self))
        let standard = try #require(ProtocolIndex.indexedExistential(named: "Swift.CustomStringConvertible"))
        #expect(ObjectIdentifier(standard) == ObjectIdentifier((any CustomStringConvertible).self))
    }

    @Test(arguments: [
        // A superclass requirement is left to the runtime's lookup, as are types and unknown names.
        "BeeHiveRegistryTests.IndexedSubclassProtocol", "BeeHiveRegistryTests.IndexedBase",
        "BeeHiveRegistryTests.IndexedProtocolHolder", "BeeHiveRegistryTests.NoSuchProtocol", "IndexedProtocol", "",
    ])
    func everythingElseIsLeftToTheNameLookup(name: String) {
        #expect(ProtocolIndex.indexedExistential(named: name) == nil)
    }
}
