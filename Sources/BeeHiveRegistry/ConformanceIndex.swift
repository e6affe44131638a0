import BeeHiveLocks
import CSectionShim
import SwiftShims
#if canImport(Glibc)
import Glibc
#endif

/// Resolves the type names of C annotations with one pass over the process's conformance records per protocol,
/// instead of two full scans per type.
///
/// `_typeByName` scans every type record in the process for each name, and the first cast of the type to a
/// protocol scans every conformance record: about 110 µs per annotated type in a typical app. The index walks the
/// conformance records of every Swift image once for a protocol (the runtime's own list of images), keeps each
/// non-generic type that conforms unconditionally under the names annotations use for it (`Module.Class` for a
/// top-level class, and the mangled form the Swift macros write, such as `4Shop4CartV`), and makes the
/// existential metatype from the type's metadata accessor and its witness table, as the runtime's cast would.
///
/// Anything the index does not understand (an extension, a private or generic context, a protocol composition)
/// is left to `_typeByName`; the index only ever answers for what it found, so it cannot give a different type
/// than the name lookup would, only a faster one. It reads the new images' records when the runtime's list of
/// images grows.
///
/// `BEEHIVE_CONFORMANCE_INDEX=0` turns this index and `ProtocolIndex` off (`isEnabled`): both read the runtime's
/// records by hand and call three of its private entry points, which a new toolchain may change.
package enum ConformanceIndex {
    /// Whether the indexes answer, read once per process: `BEEHIVE_CONFORMANCE_INDEX=0` turns them off, and
    /// every type and protocol is then looked up by name and cast, the answer the indexes must agree with.
    /// Once, because lookups are too hot for `getenv`, and reading the environment races with a thread that
    /// sets it.
    package static let isEnabled: Bool = {
        guard let setting = getenv("BEEHIVE_CONFORMANCE_INDEX") else { return true }
        return strcmp(setting, "0") != 0
    }()

    private struct Entry {
        let conformance: UnsafeRawPointer
        let typeDescriptor: UnsafeRawPointer
    }

    /// One protocol's conformances, and the conformance sections read for them (by their start): when the
    /// runtime's list of images grows (a plugin loaded), only the new images' sections are read, so the index
    /// holds what reading every section again would give.
    private struct Conformances {
        var imageCount = 0
        var entries: [String: Entry] = [:]
        var sections: Set<UInt> = []
    }

    private struct Index {
        var imageCount = 0
        var byProtocol: [UnsafeRawPointer: Conformances] = [:]
    }

    private static let index = Locked(Index())

    /// The type named `name` as `T`, when `T` is the existential metatype of a single protocol and the type
    /// conforms to it; nil when the index cannot tell or is off (the caller then looks the name up).
    package static func resolve<T>(_ name: String, as expected: T.Type) -> T? {
        isEnabled ? indexedType(name, as: expected) : nil
    }

    /// `resolve` whether or not the index is off: what the differential tests compare with the name lookup.
    package static func indexedType<T>(_ name: String, as expected: T.Type) -> T? {
        guard let protocolDescriptor = singleProtocol(of: expected) else { return nil }
        let entry = withEntries(conformingTo: protocolDescriptor) { $0[name] }
        guard let entry, let metadata = metadata(of: entry.typeDescriptor),
            let witnessTable = bh_swift_get_witness_table(entry.conformance, metadata, nil)
        else { return nil }
        return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
            guard let slot = buffer.baseAddress, MemoryLayout<T>.size == 2 * MemoryLayout<UnsafeRawPointer>.size
            else { return nil }
            let words = UnsafeMutableRawPointer(slot)
            words.storeBytes(of: metadata, as: UnsafeRawPointer.self)
            words.storeBytes(of: witnessTable, toByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
            return slot.move()
        }
    }

    /// Every name the index answers for as `T`, an existential metatype of one protocol: the differential
    /// tests check each of them against the lookup and cast, where the annotated names alone are few.
    package static func indexedNames<T>(as expected: T.Type) -> [String] {
        guard let protocolDescriptor = singleProtocol(of: expected) else { return [] }
        return withEntries(conformingTo: protocolDescriptor) { Array($0.keys) }
    }

    /// `body` with the index's entries for one protocol, read from the records first when the index has none
    /// for it, or from the new images' records when it was built for fewer images.
    private static func withEntries<Result>(
        conformingTo protocolDescriptor: UnsafeRawPointer, _ body: ([String: Entry]) -> Result
    ) -> Result {
        let images = SwiftMetadata.imageCount()
        return index.withLock { index in
            // Images are never removed from the runtime's list; a shorter list starts the index again.
            if images < index.imageCount { index = Index() }
            index.imageCount = images
            var conformances = index.byProtocol[protocolDescriptor] ?? Conformances()
            if conformances.imageCount != images {
                conformances = read(protocolDescriptor, into: conformances)
                conformances.imageCount = images
                index.byProtocol[protocolDescriptor] = conformances
            }
            return body(conformances.entries)
        }
    }

    // MARK: Metadata layout (the Swift ABI, docs/ABI/TypeMetadata.rst)

    private static let existentialMetatypeKind = 0x306
    private static let existentialKind = 0x303
    private static let hasSuperclassConstraint: UInt32 = 0x4000_0000

    /// The protocol descriptor of `any P.Type`, or nil for any other type.
    private static func singleProtocol<T>(of type: T.Type) -> UnsafeRawPointer? {
        let metatype = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        guard metatype.load(as: Int.self) == existentialMetatypeKind else { return nil }
        let existential = metatype.load(fromByteOffset: 8, as: UnsafeRawPointer.self)
        guard existential.load(as: Int.self) == existentialKind else { return nil }
        let flags = existential.load(fromByteOffset: 8, as: UInt32.self)
        let protocolCount = existential.load(fromByteOffset: 12, as: UInt32.self)
        guard protocolCount == 1, flags & hasSuperclassConstraint == 0 else { return nil }
        let reference = existential.load(fromByteOffset: 16, as: UInt.self)
        // The low bit marks an Objective-C protocol, which has no Swift conformance records.
        guard reference & 1 == 0 else { return nil }
        return UnsafeRawPointer(bitPattern: reference)
    }

    private final class Collector {
        let protocolDescriptor: UnsafeRawPointer
        var conformances: Conformances
        init(_ protocolDescriptor: UnsafeRawPointer, _ conformances: Conformances) {
            self.protocolDescriptor = protocolDescriptor
            self.conformances = conformances
        }
    }

    /// `conformances` with the records of every conformance section it has not read yet.
    private static func read(_ protocolDescriptor: UnsafeRawPointer, into conformances: Conformances) -> Conformances {
        let collector = Unmanaged.passRetained(Collector(protocolDescriptor, conformances))
        defer { collector.release() }
        bh_swift_enumerate_metadata_sections(collectConformances, collector.toOpaque())
        return collector.takeUnretainedValue().conformances
    }

    private static let collectConformances: @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Bool = {
        sections, context in
        guard let sections, let context else { return false }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        let range = sections.assumingMemoryBound(to: MetadataSections.self).pointee.swift5_protocol_conformances
        guard let start = UnsafeRawPointer(bitPattern: range.start),
              collector.conformances.sections.insert(range.start).inserted
        else { return true }
        for offset in stride(from: 0, to: Int(range.length) - 3, by: 4) {
            take(SwiftMetadata.relativeDirect(start + offset), into: collector)
        }
        return true
    }

    /// A conformance record: the protocol, the type, the witness table pattern and the flags (int32 each).
    private static func take(_ conformance: UnsafeRawPointer, into collector: Collector) {
        guard SwiftMetadata.relativeIndirectable(conformance) == collector.protocolDescriptor else { return }
        let flags = conformance.load(fromByteOffset: 12, as: UInt32.self)
        let typeReferenceKind = (flags >> 3) & 0x7
        let conditionalRequirements = (flags >> 8) & 0xFF
        guard conditionalRequirements == 0 else { return }
        let typeField = conformance + 4
        let typeDescriptor: UnsafeRawPointer?
        switch typeReferenceKind {
        case 0: typeDescriptor = SwiftMetadata.relativeDirect(typeField)
        case 1: typeDescriptor = SwiftMetadata.relativeDirect(typeField).load(as: UnsafeRawPointer?.self)
        default: return
        }
        guard let typeDescriptor else { return }
        for name in names(of: typeDescriptor) {
            collector.conformances.entries[name] = Entry(conformance: conformance, typeDescriptor: typeDescriptor)
        }
    }

    private static let kindSuffixes: [UInt32: String] = [16: "C", 17: "V", 18: "O"]
    private static let isGenericFlag: UInt32 = 0x80

    /// `Module.Class` for a top-level class, and the macros' mangled form (`4Shop5OuterC5InnerV`) for every
    /// type nested only in types; nothing for a type in an extension, a function or a private context.
    private static func names(of typeDescriptor: UnsafeRawPointer) -> [String] {
        var components: [(name: String, suffix: String)] = []
        var context: UnsafeRawPointer? = typeDescriptor
        // Nesting is bounded by the source; 64 levels is far beyond any real type.
        for _ in 0..<64 {
            guard let current = context else { return [] }
            let flags = current.load(as: UInt32.self)
            let kind = flags & 0x1F
            // Only modules and nominal types have their name at offset 8; an extension, an anonymous (private)
            // context or a function has something else there, which must not be read as a name.
            guard kind == 0 || kindSuffixes[kind] != nil else { return [] }
            let name = String(cString: SwiftMetadata.relativeDirect(current + 8).assumingMemoryBound(to: CChar.self))
            if kind == 0 {
                let mangled = components.reversed().reduce("\(name.utf8.count)\(name)") {
                    $0 + "\($1.name.utf8.count)\($1.name)\($1.suffix)"
                }
                if components.count == 1, components[0].suffix == "C" {
                    return ["\(name).\(components[0].name)", mangled]
                }
                return [mangled]
            }
            guard let suffix = kindSuffixes[kind], flags & isGenericFlag == 0 else { return [] }
            components.append((name, suffix))
            context = SwiftMetadata.relativeIndirectable(current + 4)
        }
        return []
    }

    private static func metadata(of typeDescriptor: UnsafeRawPointer) -> UnsafeRawPointer? {
        typealias Accessor = @convention(thin) (Int) -> (UnsafeRawPointer?, Int)
        let accessor = unsafeBitCast(SwiftMetadata.relativeDirect(typeDescriptor + 12), to: Accessor.self)
        return accessor(0).0
    }
}
