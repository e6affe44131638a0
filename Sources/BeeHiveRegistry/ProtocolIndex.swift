import BeeHiveLocks
import CSectionShim
import SwiftShims
#if canImport(Glibc)
import Glibc
#endif

/// Finds a protocol by its dotted name (`Shop.CartService`, `Shop.Outer.CartService`) with one pass over the
/// process's protocol records, instead of one scan per name.
///
/// The runtime's lookup of a protocol's mangled name compares the name with every protocol record of the
/// process, one by one (about 10 µs per service protocol of a C-annotated app). The index reads every Swift
/// image's protocol records once and keeps each under a hash of its own name; a dotted name is then checked
/// against the few protocols of that name, context by context, and the protocol's existential type made as the
/// runtime's lookup would, from its descriptor.
///
/// Anything it does not understand (a protocol in an extension, a private or generic context, one with a superclass
/// requirement) is left out, so that the caller looks the name up: the index only ever answers for what it
/// found, with the type the runtime's lookup gives. It reads the new images' records when the runtime's list of
/// images grows.
/// `BEEHIVE_CONFORMANCE_INDEX=0` turns it off with `ConformanceIndex`.
package enum ProtocolIndex {
    /// Protocol descriptors by a hash of their own name, the first of each hash apart so that a name met once
    /// (most) costs no array: the index holds every protocol of the process, and making a string for each
    /// cost more than the lookups it saves.
    private struct Index {
        var imageCount = 0
        var first: [UInt64: UnsafeRawPointer] = [:]
        var more: [UInt64: [UnsafeRawPointer]] = [:]
        /// The protocol sections read, by their start: when the list of images grows, only the new images'
        /// sections are read, which appends to the index what reading every section again would.
        var sections: Set<UInt> = []
    }

    private static let index = Locked(Index())

    /// The existential type (`any P`) of the protocol named `name`; nil when the index does not know the name
    /// or is off (`ConformanceIndex.isEnabled`).
    package static func existential(named name: String) -> Any.Type? {
        ConformanceIndex.isEnabled ? indexedExistential(named: name) : nil
    }

    /// `existential(named:)` whether or not the index is off: what the differential tests compare with the
    /// runtime's lookup of the protocol's mangled name.
    package static func indexedExistential(named name: String) -> Any.Type? {
        let components = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard components.count >= 2, let last = components.last else { return nil }
        let key = hash(last)
        let images = SwiftMetadata.imageCount()
        let descriptor: UnsafeRawPointer? = index.withLock { index in
            // Images are never removed from the runtime's list; a shorter list builds the index again.
            if index.imageCount != images { index = build(from: images < index.imageCount ? Index() : index, imageCount: images) }
            guard let first = index.first[key] else { return nil }
            if isProtocol(first, named: components) { return first }
            return index.more[key]?.first { isProtocol($0, named: components) }
        }
        guard let descriptor else { return nil }
        return withUnsafePointer(to: Optional(descriptor)) { protocols in
            // The first kind-specific flag is the class constraint: 0 for a class-bound protocol.
            let isClassBound = descriptor.load(as: UInt32.self) >> 16 & 1 == 0
            let metadata = bh_swift_get_existential_type_metadata(!isClassBound, nil, 1, protocols)
            return metadata.map { unsafeBitCast($0, to: Any.Type.self) }
        }
    }

    // MARK: Descriptor layout (the Swift ABI, include/swift/ABI/Metadata.h)

    private static let moduleKind: UInt32 = 0
    private static let protocolKind: UInt32 = 3
    private static let typeKinds: ClosedRange<UInt32> = 16...18
    private static let isGenericFlag: UInt32 = 0x80
    private static let baseClassRequirement: UInt32 = 2
    /// A generic requirement descriptor: flags, subject and constraint (int32 each).
    private static let requirementSize = 12

    private final class Collector {
        var index: Index
        init(_ index: Index) { self.index = index }
    }

    /// `index` with the protocols of every section it has not read yet.
    private static func build(from index: Index, imageCount: Int) -> Index {
        var index = index
        index.imageCount = imageCount
        let collector = Unmanaged.passRetained(Collector(index))
        defer { collector.release() }
        bh_swift_enumerate_metadata_sections(collectProtocols, collector.toOpaque())
        return collector.takeUnretainedValue().index
    }

    private static let collectProtocols: @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Bool = {
        sections, context in
        guard let sections, let context else { return false }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        let range = sections.assumingMemoryBound(to: MetadataSections.self).pointee.swift5_protocols
        guard let start = UnsafeRawPointer(bitPattern: range.start), collector.index.sections.insert(range.start).inserted
        else { return true }
        for offset in stride(from: 0, to: Int(range.length) - 3, by: 4) {
            guard let descriptor = SwiftMetadata.relativeIndirectable(start + offset) else { continue }
            let key = hash(name(of: descriptor))
            // Kept in image order, so that the first image wins, as in the runtime's own scan.
            if collector.index.first[key] == nil {
                collector.index.first[key] = descriptor
            } else {
                collector.index.more[key, default: []].append(descriptor)
            }
        }
        return true
    }

    /// Whether the descriptor is the protocol `Module.P` or `Module.Outer.P` that `components` spell, declared
    /// where the index understands it.
    private static func isProtocol(_ descriptor: UnsafeRawPointer, named components: [Substring.UTF8View]) -> Bool {
        guard descriptor.load(as: UInt32.self) & 0x1F == protocolKind, !hasSuperclassRequirement(descriptor) else {
            return false
        }
        var context: UnsafeRawPointer? = descriptor
        for (position, component) in components.enumerated().reversed() {
            guard let current = context else { return false }
            let flags = current.load(as: UInt32.self)
            let kind = flags & 0x1F
            // Only protocols, modules and nominal types have their name at offset 8: an extension or an
            // anonymous (private) context has something else there.
            let isNamed = current == descriptor || kind == moduleKind || typeKinds.contains(kind)
            guard isNamed, name(of: current).elementsEqual(component) else { return false }
            if position == 0 { return kind == moduleKind }
            if current != descriptor, !typeKinds.contains(kind) || flags & isGenericFlag != 0 { return false }
            context = SwiftMetadata.relativeIndirectable(current + 4)
        }
        return false
    }

    /// A context's name, without its terminating NUL.
    private static func name(of context: UnsafeRawPointer) -> UnsafeBufferPointer<UInt8> {
        let start = SwiftMetadata.relativeDirect(context + 8)
        return UnsafeBufferPointer(
            start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    /// 64-bit FNV-1a.
    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    /// Whether the protocol's requirement signature requires a superclass, which the existential carries and
    /// which this index does not work out.
    private static func hasSuperclassRequirement(_ descriptor: UnsafeRawPointer) -> Bool {
        let count = Int(descriptor.load(fromByteOffset: 12, as: UInt32.self))
        let requirements = descriptor + 24
        return (0..<count).contains { index in
            requirements.load(fromByteOffset: index * requirementSize, as: UInt32.self) & 0x1F == baseClassRequirement
        }
    }
}
