import BeeHiveAnnotations
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

protocol ReferencedService: AnyObject {
    var name: String { get }
}

/// Annotated with the Swift macro in this test process: its record and its type reference are read from memory.
@BeeHiveService(ReferencedService.self)
final class ReferencedServiceImpl: ReferencedService, SimpleServiceImplementation {
    let name = "referenced"
    init() {}
}

/// The Swift macros hand the registry a compile-time-checked reference to the annotated type, so resolving it
/// needs no name lookup and no conformance scan.
@Suite struct TypeReferenceTests {
    static let typeName = "BeeHiveServicesTests.ReferencedServiceImpl"

    @Test func macroAnnotatedTypeResolvesThroughItsReference() throws {
        _ = AnnotationRegistry.shared.refresh()
        let type = try #require(TypeReferences.resolve(Self.typeName, as: (any ServiceImplementation.Type).self))
        #expect(ObjectIdentifier(type) == ObjectIdentifier(ReferencedServiceImpl.self))
        #expect(TypeReferences.count >= 1)
    }

    @Test func referenceAnswersOnlyForTheProtocolItWasWrittenFor() {
        _ = AnnotationRegistry.shared.refresh()
        #expect(TypeReferences.resolve(Self.typeName, as: Any.Type.self) == nil)
        #expect(TypeReferences.resolve(Self.typeName, as: (any ReferencedService.Type).self) == nil)
        #expect(TypeReferences.resolve("BeeHiveServicesTests.NotAnnotated", as: (any ServiceImplementation.Type).self) == nil)
    }

    /// The service's protocol comes with a reference too, so that checking the record at start-up does not look
    /// the protocol up by name (a scan of every conformance record of the process).
    @Test func macroAnnotatedServiceProtocolResolvesThroughItsReference() throws {
        _ = AnnotationRegistry.shared.refresh()
        let type = try #require(TypeReferences.resolve("BeeHiveServicesTests.ReferencedService", as: Any.Type.self))
        #expect(ObjectIdentifier(type) == ObjectIdentifier((any ReferencedService).self))
        #expect(TypeReferences.resolve("BeeHiveServicesTests.ReferencedService", as: (any ServiceImplementation.Type).self) == nil)
        let record = try #require(AnnotationRegistry.shared.records.first { $0.text.contains("|" + Self.typeName + "|") })
        let manager = ServiceManager()
        manager.apply(Records.update(added: [record]))
        #expect(manager.validate().isEmpty)
    }

    @Test func annotationFromThisProcessIsCreatedByTheManager() throws {
        _ = AnnotationRegistry.shared.refresh()
        let record = try #require(AnnotationRegistry.shared.records.first { $0.text.contains("|" + Self.typeName + "|") })
        let manager = ServiceManager()
        manager.apply(Records.update(added: [record]))
        #expect(try manager.resolve(ReferencedService.self).name == "referenced")
    }

    /// A reference is found by the hash of its name and confirmed by the name it returns, so a name that shares
    /// its hash cannot find it (and `contains` cannot vouch for a protocol that is not there).
    @Test func referenceIsConfirmedByItsName() {
        let named: TypeReferences.Function = { expected, result in
            guard expected == TypeReferences.nameQuery else { return false }
            result.initializeMemory(as: StaticString.self, repeating: "Shop.Service", count: 1)
            return true
        }
        #expect(TypeReferences.isWritten(named, under: "Shop.Service"))
        #expect(!TypeReferences.isWritten(named, under: "Shop.Servic"))
        #expect(!TypeReferences.isWritten(named, under: "Shop.Other"))
        // A function from before functions answered the name query: never taken for a name.
        let unnamed: TypeReferences.Function = { _, _ in false }
        #expect(!TypeReferences.isWritten(unnamed, under: "Shop.Service"))
    }

    @Test func macroAnnotatedProtocolIsKnownByItsExactName() {
        _ = AnnotationRegistry.shared.refresh()
        #expect(TypeReferences.contains("BeeHiveServicesTests.ReferencedService"))
        #expect(!TypeReferences.contains("BeeHiveServicesTests.ReferencedServic"))
    }

    @Test func hashMatchesTheMacros() {
        #expect(TypeReferences.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(TypeReferences.hash("a") == 0xaf63_dc4c_8601_ec8c)
    }
}
