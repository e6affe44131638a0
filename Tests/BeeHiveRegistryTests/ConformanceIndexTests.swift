@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Foundation
import Glibc
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

/// In a private context (an anonymous context descriptor, with no name to read), and in an extension's.
private final class PrivatelyIndexed: Indexed {
    static let label = "private"
}

extension Int {
    final class InAnExtension: Indexed {
        static let label = "extension"
    }
}

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

    /// The index leaves them to the name lookup: it names only types nested in types and modules.
    @Test func typesInPrivateContextsAndExtensionsAreLeftOut() {
        let names = ConformanceIndex.indexedNames(as: (any Indexed.Type).self)
        #expect(names.contains("BeeHiveRegistryTests.IndexedClass"))
        #expect(!names.contains { $0.contains("PrivatelyIndexed") || $0.contains("InAnExtension") }, "\(names)")
        #expect(PrivatelyIndexed.label == "private" && Int.InAnExtension.label == "extension")
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

/// A Swift library loaded after both indexes were built: they read its records when the runtime's list of
/// images grows (only the new sections), and answer as the runtime's lookup does for its types and protocols.
/// Indexing every conformance of the process to `CustomStringConvertible` also meets types in extensions and
/// private contexts, whose parents have no name to read.
@Suite struct ConformanceIndexGrowthTests {
    @Test func theIndexesReadTheRecordsOfALibraryLoadedAfterThem() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            public protocol LateProtocol { func answer() -> Int }
            public final class LateClass: LateProtocol, CustomStringConvertible {
                public init() {}
                public func answer() -> Int { 42 }
                public var description: String { "late" }
            }
            """.write(to: directory.appending(path: "Late.swift"), atomically: true, encoding: .utf8)
        let swiftc = ProcessInfo.processInfo.environment["PATH"].flatMap { path in
            path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        } ?? "/usr/bin/swiftc"
        let process = Process()
        process.executableURL = URL(filePath: swiftc)
        process.arguments = ["-emit-library", "-module-name", "LateIndexed", "Late.swift", "-o", "libLateIndexed.so"]
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swiftc failed")

        // Both indexes are built before the library is loaded.
        typealias Described = any CustomStringConvertible.Type
        let before = ConformanceIndex.indexedNames(as: Described.self)
        #expect(!before.isEmpty && !before.contains("LateIndexed.LateClass"))
        #expect(ProtocolIndex.indexedExistential(named: "LateIndexed.LateProtocol") == nil)
        try #require(dlopen(directory.appending(path: "libLateIndexed.so").path, RTLD_NOW | RTLD_LOCAL) != nil,
                     "\(String(cString: dlerror()))")

        let after = ConformanceIndex.indexedNames(as: Described.self)
        // The library's class under both names the index keeps for a top-level class, and nothing else changed.
        let difference = Set(after).symmetricDifference(before)
        #expect(difference == ["LateIndexed.LateClass", "11LateIndexed9LateClassC"], "\(difference)")
        let indexed = ConformanceIndex.indexedType("LateIndexed.LateClass", as: Described.self)
        let looked = _typeByName("LateIndexed.LateClass") as? Described
        #expect(indexed != nil && indexed.map(ObjectIdentifier.init) == looked.map(ObjectIdentifier.init))
        #expect(indexed.map { String(describing: $0) } == "LateClass")
        let existential = ProtocolIndex.indexedExistential(named: "LateIndexed.LateProtocol")
        #expect(existential.map { String(reflecting: $0) } == "LateIndexed.LateProtocol")
    }
}
