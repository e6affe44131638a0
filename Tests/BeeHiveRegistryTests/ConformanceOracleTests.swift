@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The conformance and protocol indexes against the plain path they stand in for: the runtime's lookup by name
/// (`_typeByName`) and its cast (`as? any P.Type`), for every type annotated in this process (the test targets'
/// records, which are few), every name the index holds (every conforming type of every test target), and
/// every protocol BeeHive resolves annotated types as.
///
/// The indexes read the runtime's records by hand; a toolchain that changes those records would make them
/// answer wrong, and these tests say which type and what each side answered. They call the indexes whether or
/// not `BEEHIVE_CONFORMANCE_INDEX=0` turned them off, so the run with the switch off checks them too.
@Suite struct ConformanceOracleTests {
    /// BeeHive's protocols, by name and by the mangled name of their existential metatype (`any P.Type`).
    /// This target cannot import the modules that declare them, but every test target is linked into one test
    /// process, so the runtime finds them by name.
    static let protocols: [(name: String, metatype: String)] = [
        ("BeeHiveModules", "Module"), ("BeeHiveModules", "AsyncModule"), ("BeeHiveServices", "ServiceImplementation"),
        ("BeeHiveServices", "SimpleServiceImplementation"), ("BeeHiveRouter", "RouteHandler"),
        ("BeeHiveRouter", "MediatorTarget"), ("BeeHiveRouter", "RouteInterceptor"),
    ].map { module, name in
        ("\(module).\(name)", ConformanceOracleTests.mangled(module) + ConformanceOracleTests.mangled(name) + "P_pXp")
    }

    /// Every record of the objects loaded in this process, read by a registry of the test's own.
    static let records = AnnotationRegistry(source: LoadedObjectsSource()).snapshot().added

    static let annotatedTypeNames: [String] = Set(records.map { record in
        switch record.payload {
        case .module(let module): module.typeName
        case .service(let service): service.typeName
        case .route(let route): route.typeName
        case .target(let target): target.typeName
        }
    }).sorted()

    /// The annotated names, and every name the index holds for any of the protocols (the types of every test
    /// target that conform to them, registered in code or not), each resolved as each protocol.
    @Test func indexAgreesWithTheLookupAndCastForEveryAnnotatedType() throws {
        // A process without records would leave the annotated names out unseen.
        try #require(!Self.annotatedTypeNames.isEmpty, "no annotated types in the test process")
        let metatypes = try Self.protocols.map { protocolName, mangled in
            (protocolName, try #require(TypeResolver.type(named: mangled), "the runtime does not know \(protocolName) (\(mangled))"))
        }
        var nameSet = Set(Self.annotatedTypeNames)
        for (_, metatype) in metatypes {
            nameSet.formUnion(Self.indexedNames(as: metatype))
        }
        let names = nameSet.sorted()
        var tally = Tally()
        for (protocolName, metatype) in metatypes {
            for name in names {
                tally.add(Self.compare(name, as: metatype, protocolName: protocolName))
            }
        }
        // The index answers for every annotated type it understands; none at all would mean it stopped
        // reading the records, which the lookup hides (only slower).
        #expect(tally.indexed > 0, "the index answered for none of \(tally.compared) comparisons")
        #expect(tally.conforming > 0, "no annotated type conforms to a BeeHive protocol: the names are wrong")
        print(
            "ConformanceOracleTests: \(names.count) type names (\(Self.annotatedTypeNames.count) annotated) × \(Self.protocols.count) protocols, \(tally)")
    }

    /// Each service record's protocol: the protocol index against the runtime's lookup of its mangled name,
    /// then the service's type resolved as that protocol, through the index and through the lookup and cast.
    @Test func protocolIndexAgreesWithTheMangledLookupForEveryServiceProtocol() throws {
        let services = Self.records.compactMap { record -> ServiceAnnotation? in
            if case .service(let service) = record.payload { service } else { nil }
        }
        try #require(!services.isEmpty, "no service records in the test process")
        var protocolsFound = 0
        var tally = Tally()
        // BeeHive's own protocols and a few of the standard library's too: the process has few service records.
        let protocolNames = services.map(\.protocolName) + Self.protocols.map(\.name)
            + ["Swift.CustomStringConvertible", "Swift.Error", "Swift.Hashable"]
        for protocolName in Set(protocolNames).sorted() {
            let plain = Self.protocolByMangledName(protocolName)
            let indexed = ProtocolIndex.indexedExistential(named: protocolName)
            if let indexed {
                #expect(
                    plain.map { ObjectIdentifier($0.existential) } == ObjectIdentifier(indexed),
                    "ProtocolIndex gives \(String(reflecting: indexed)) for \(protocolName); the lookup of its mangled name gives \(plain.map { String(reflecting: $0.existential) } ?? "nothing")"
                )
                protocolsFound += 1
            }
            guard let plain, let metatype = TypeResolver.type(named: plain.mangled + "Xp") else { continue }
            for service in services where service.protocolName == protocolName {
                tally.add(Self.compare(service.typeName, as: metatype, protocolName: protocolName))
            }
        }
        #expect(protocolsFound > 0, "the protocol index found none of the services' protocols")
        #expect(tally.conforming > 0, "no service type conforms to its protocol: the names are wrong")
        print("ConformanceOracleTests: \(protocolsFound) service protocols found by the index, \(tally)")
    }

    /// `BEEHIVE_CONFORMANCE_INDEX=0`, as the second run of the resolution suites sets it, turns both indexes
    /// off and leaves the answers as they were.
    @Test func theSwitchTurnsBothIndexesOffAndNothingElse() throws {
        let off = getenv("BEEHIVE_CONFORMANCE_INDEX").map { String(cString: $0) == "0" } ?? false
        #expect(ConformanceIndex.isEnabled == !off)
        let name = ConformanceIndexTests.prefix + "13IndexedStructV"
        #expect((ConformanceIndex.resolve(name, as: (any Indexed.Type).self) != nil) == !off)
        #expect((ProtocolIndex.existential(named: "BeeHiveRegistryTests.IndexedProtocol") != nil) == !off)
        #expect(try TypeResolver.resolve(name, as: (any Indexed.Type).self).get().label == "struct")
    }

    // MARK: The comparison

    static func indexedNames<T>(as metatype: T.Type) -> [String] {
        ConformanceIndex.indexedNames(as: T.self)
    }

    /// What a resolution gave: the type and the witness table of its conformance (an existential metatype's
    /// two words), or nothing.
    struct Answer: Equatable, CustomStringConvertible {
        let metadata: UInt
        let witnessTable: UInt

        init?<T>(_ value: T?) {
            guard var value else { return nil }
            precondition(MemoryLayout<T>.size == 2 * MemoryLayout<UInt>.size, "\(T.self) is not an existential metatype")
            (metadata, witnessTable) = withUnsafeBytes(of: &value) {
                ($0.load(as: UInt.self), $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self))
            }
        }

        var type: Any.Type { unsafeBitCast(UnsafeRawPointer(bitPattern: metadata)!, to: Any.Type.self) }

        var description: String {
            "\(String(reflecting: type)) (witness table 0x\(String(witnessTable, radix: 16)))"
        }
    }

    struct Tally: CustomStringConvertible {
        var compared = 0
        var indexed = 0
        var conforming = 0

        mutating func add(_ other: Tally) {
            compared += other.compared
            indexed += other.indexed
            conforming += other.conforming
        }

        var description: String {
            "\(compared) comparisons, \(conforming) conforming, \(indexed) answered by the index"
        }
    }

    /// `name` resolved as `T` (an existential metatype, opened from `metatype`) three ways: the index, the
    /// lookup and cast, and the resolver (references, then the index unless it is off, then the lookup). The
    /// index may leave a name to the lookup; what it answers, and what the resolver answers, must be the
    /// lookup's answer.
    static func compare<T>(_ name: String, as metatype: T.Type, protocolName: String) -> Tally {
        let plain = Answer(TypeResolver.type(named: name).flatMap { $0 as? T })
        let indexed = Answer(ConformanceIndex.indexedType(name, as: T.self))
        let resolved = Answer(try? TypeResolver.resolve(name, as: T.self).get())
        if let indexed {
            #expect(
                indexed == plain,
                "ConformanceIndex resolves \(name) as \(protocolName) to \(indexed); the lookup and cast give \(plain.map(String.init(describing:)) ?? "nothing")"
            )
        }
        // A Swift macro's reference makes the existential where the compiler checked the conformance: the same
        // type, and a conformance at all, is what the resolver must agree on.
        #expect(
            resolved?.metadata == plain?.metadata,
            "TypeResolver resolves \(name) as \(protocolName) to \(resolved.map(String.init(describing:)) ?? "nothing"); the lookup and cast give \(plain.map(String.init(describing:)) ?? "nothing") (index \(ConformanceIndex.isEnabled ? "on" : "off"))"
        )
        return Tally(compared: 1, indexed: indexed == nil ? 0 : 1, conforming: plain == nil ? 0 : 1)
    }

    // MARK: The runtime's lookup of a protocol

    /// The protocol named `name` (`Module.P`, `Module.Outer.P`) looked up by each mangled name its dotted name
    /// can stand for, since the kinds of its enclosing types are not in the name; nil for a name that is not
    /// plain identifiers.
    static func protocolByMangledName(_ name: String) -> (existential: Any.Type, mangled: String)? {
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, components.allSatisfy(isPlainIdentifier) else { return nil }
        var contexts = [components[0] == "Swift" ? "s" : mangled(components[0])]
        for component in components.dropFirst().dropLast() {
            contexts = contexts.flatMap { prefix in ["V", "C", "O"].map { prefix + mangled(component) + $0 } }
        }
        for context in contexts {
            let mangledName = context + mangled(components[components.count - 1]) + "P_p"
            if let type = TypeResolver.type(named: mangledName) { return (type, mangledName) }
        }
        return nil
    }

    static func mangled(_ identifier: some StringProtocol) -> String {
        "\(identifier.utf8.count)\(identifier)"
    }

    static func isPlainIdentifier(_ text: Substring) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
