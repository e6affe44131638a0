import BeeHiveLocks
import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// The compile-time-checked type references that the Swift macros write next to their records.
///
/// Resolving a record's type by name costs a scan of every type record in the process (`_typeByName`), and the
/// first cast to a protocol a scan of every conformance record (tens of microseconds each, per type). A Swift
/// macro knows the type and the protocol at compile time, so it also writes, in section `beehive_types`, the
/// hash of the type name it recorded and a function that returns the type as that protocol's existential
/// metatype: the compiler checked the conformance, and the runtime looks nothing up.
///
/// The table follows the shim's set of loaded objects: it is rebuilt when the set's generation moves, so the
/// functions of an unloaded object are never called. Entries hold pointers, relocated in memory only, so the
/// section is read from memory and never from a file.
@usableFromInline
package enum TypeReferences {
    /// Writes the type into `result` and returns true when `expected` is the metatype it was written for.
    /// Asked with `nameQuery` instead, it writes the `StaticString` name it was written under and returns true.
    package typealias Function = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool

    /// What a reference function is passed to ask for its name. No metatype lives at address 1; a function from
    /// an object built before functions answered it returns false, and its name resolves as C annotations do.
    package static var nameQuery: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }

    /// Every reference of the loaded objects, in a hash table built in one pass: the functions are called
    /// outside the lock, and a lookup takes a reference to the table rather than copying it.
    private final class Table {
        let generation: UInt64?
        /// Open addressing with linear probing, a power of two of slots, at most half full. Slot `i` is the
        /// hash at `2 * i` (zero, which no name hashes to, when empty) and the function's address at `2 * i + 1`:
        /// one array of `UInt64`, whose storage type the process already has, where an array of structs made
        /// the runtime build its storage type from a mangled name at the first start-up.
        let slots: [UInt64]
        let count: Int

        /// `references` holds hashes and function addresses, alternately.
        init(generation: UInt64?, references: [UInt64]) {
            self.generation = generation
            count = references.count / 2
            var capacity = 16
            while capacity < count * 2 { capacity *= 2 }
            var slots = [UInt64](repeating: 0, count: capacity * 2)
            let mask = capacity - 1
            for index in 0..<count {
                let hash = references[2 * index]
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[2 * slot] != 0 { slot = (slot + 1) & mask }
                slots[2 * slot] = hash
                slots[2 * slot + 1] = references[2 * index + 1]
            }
            self.slots = slots
        }
    }

    private static let table = Locked(Table(generation: nil, references: []))

    /// The type named `name`, as `T`, when a Swift macro wrote a reference for it; nil otherwise.
    ///
    /// Inlinable, so that each caller has it for its own `T`: called generically, each resolution looked up
    /// the metadata of `T?` and moved the type through value witnesses, which cost more than the lookup.
    @inlinable
    package static func resolve<T>(_ name: String, as expected: T.Type) -> T? {
        withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            guard let slot = buffer.baseAddress,
                resolve(name, expected: unsafeBitCast(expected as Any.Type, to: UnsafeRawPointer.self), into: UnsafeMutableRawPointer(slot))
            else { return nil }
            return slot.move()
        }
    }

    /// Writes the type named `name` into `result`, and returns true, when a reference written under that name
    /// returns it as the metatype `expected`.
    @usableFromInline
    package static func resolve(_ name: String, expected: UnsafeRawPointer, into result: UnsafeMutableRawPointer) -> Bool {
        firstReference(named: name) { $0(expected, result) }
    }

    /// Whether a Swift macro wrote a reference under `name`. Names are unique in a process, so for a service's
    /// protocol this says the protocol exists without making its metadata.
    package static func contains(_ name: String) -> Bool {
        firstReference(named: name) { _ in true }
    }

    /// How many references the loaded objects carry, for tests and tools.
    package static var count: Int {
        refreshedTable().count
    }

    /// Whether `body` returns true for a function written under `name`. The hash finds the candidates and each
    /// function's own name confirms it, so names that share a hash cannot stand for each other.
    private static func firstReference(named name: String, where body: (Function) -> Bool) -> Bool {
        let key = hash(name)
        let table = refreshedTable()
        return table.slots.withUnsafeBufferPointer { slots in
            let mask = slots.count / 2 - 1
            var slot = Int(truncatingIfNeeded: key) & mask
            while slots[2 * slot] != 0 {
                if slots[2 * slot] == key, let address = UnsafeRawPointer(bitPattern: UInt(slots[2 * slot + 1])) {
                    let function = unsafeBitCast(address, to: Function.self)
                    if isWritten(function, under: name) && body(function) { return true }
                }
                slot = (slot + 1) & mask
            }
            return false
        }
    }

    /// Whether the function was written under `name`, as it answers `nameQuery`.
    package static func isWritten(_ function: Function, under name: String) -> Bool {
        withUnsafeTemporaryAllocation(of: StaticString.self, capacity: 1) { buffer in
            guard let slot = buffer.baseAddress, function(nameQuery, UnsafeMutableRawPointer(slot)) else { return false }
            let written = slot.move()
            guard written.hasPointerRepresentation else { return false }
            let writtenBytes = UnsafeRawBufferPointer(start: written.utf8Start, count: written.utf8CodeUnitCount)
            return withUTF8(of: name) { bytes in
                bytes.count == writtenBytes.count
                    && (bytes.isEmpty || memcmp(bytes.baseAddress!, writtenBytes.baseAddress!, bytes.count) == 0)
            }
        }
    }

    private static func refreshedTable() -> Table {
        let generation = bh_snapshot_generation()
        return table.withLock { table in
            if table.generation != generation { table = build() }
            return table
        }
    }

    private static func build() -> Table {
        guard let snapshot = bh_snapshot_take() else { return Table(generation: nil, references: []) }
        defer { bh_snapshot_free(snapshot) }
        var references: [UInt64] = []
        for index in 0..<snapshot.pointee.count {
            guard let object = snapshot.pointee.objects[index], object.pointee.source == BH_SOURCE_MEMORY.rawValue else { continue }
            for sectionIndex in 0..<object.pointee.section_count {
                let section = object.pointee.sections[sectionIndex]
                guard section.status == BH_SECTION_OK.rawValue, let name = section.name, let data = section.data,
                    strcmp(name, BEEHIVE_SECTION_TYPES) == 0
                else { continue }
                read(UnsafeRawBufferPointer(start: data, count: section.size), into: &references)
            }
        }
        return Table(generation: snapshot.pointee.generation, references: references)
    }

    /// Entries are 16 bytes: the hash, then the function. Runs of zero words are padding (sanitizers and
    /// linkers align and pad each contribution), so a zero hash is skipped one word at a time.
    private static func read(_ bytes: UnsafeRawBufferPointer, into references: inout [UInt64]) {
        let entrySize = Int(BEEHIVE_TYPE_REFERENCE_SIZE)
        references.reserveCapacity(references.count + 2 * (bytes.count / entrySize))
        var offset = 0
        while offset + 8 <= bytes.count {
            let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard key != 0 else {
                offset += 8
                continue
            }
            guard offset + entrySize <= bytes.count else { return }
            let address = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            if address != 0 {
                references.append(key)
                references.append(address)
            }
            offset += entrySize
        }
    }

    /// 64-bit FNV-1a of the name's UTF-8 bytes, never 0 (0 marks padding); the macros compute the same.
    package static func hash(_ name: String) -> UInt64 {
        // Over the contiguous bytes: through the UTF-8 view, each byte went through the view's index checks.
        withUTF8(of: name) { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return hash == 0 ? 1 : hash
        }
    }

    /// The name's UTF-8 bytes, read in place when the string has them contiguously (as native strings do):
    /// `withUTF8` on a copy retained and released the string for every lookup.
    private static func withUTF8<Result>(of name: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = name.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var name = name
        return name.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
