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
    typealias Function = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool

    private struct Table {
        var generation: UInt64?
        /// Every reference, ordered by hash and found by binary search: one allocation for the table, where a
        /// dictionary of arrays made one per name, and no hashing of the hash.
        var entries: [Entry] = []
    }

    private struct Entry {
        let hash: UInt64
        let function: Function
    }

    private static let table = Locked(Table())

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

    /// Writes the type named `name` into `result`, and returns true, when a reference for that name returns
    /// it as the metatype `expected`.
    @usableFromInline
    package static func resolve(_ name: String, expected: UnsafeRawPointer, into result: UnsafeMutableRawPointer) -> Bool {
        for entry in candidates(for: name) where entry.function(expected, result) { return true }
        return false
    }

    /// Whether a Swift macro wrote a reference under `name`. Names are unique in a process, so for a service's
    /// protocol this says the protocol exists without making its metadata.
    package static func contains(_ name: String) -> Bool {
        !candidates(for: name).isEmpty
    }

    /// How many references the loaded objects carry, for tests and tools.
    package static var count: Int {
        refreshedTable().entries.count
    }

    /// The entries under the hash of `name`; the functions are called outside the lock.
    private static func candidates(for name: String) -> ArraySlice<Entry> {
        let key = hash(name)
        let entries = refreshedTable().entries
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].hash < key { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < entries.count && entries[end].hash == key { end += 1 }
        return entries[low..<end]
    }

    private static func refreshedTable() -> Table {
        let generation = bh_snapshot_generation()
        return table.withLock { table in
            if table.generation != generation { table = build() }
            return table
        }
    }

    private static func build() -> Table {
        var table = Table()
        guard let snapshot = bh_snapshot_take() else { return table }
        defer { bh_snapshot_free(snapshot) }
        table.generation = snapshot.pointee.generation
        for index in 0..<snapshot.pointee.count {
            guard let object = snapshot.pointee.objects[index], object.pointee.source == BH_SOURCE_MEMORY.rawValue else { continue }
            for sectionIndex in 0..<object.pointee.section_count {
                let section = object.pointee.sections[sectionIndex]
                guard section.status == BH_SECTION_OK.rawValue, let name = section.name, let data = section.data,
                    strcmp(name, BEEHIVE_SECTION_TYPES) == 0
                else { continue }
                read(UnsafeRawBufferPointer(start: data, count: section.size), into: &table.entries)
            }
        }
        table.entries.sort { $0.hash < $1.hash }
        return table
    }

    /// Entries are 16 bytes: the hash, then the function. Runs of zero words are padding (sanitizers and
    /// linkers align and pad each contribution), so a zero hash is skipped one word at a time.
    private static func read(_ bytes: UnsafeRawBufferPointer, into entries: inout [Entry]) {
        let entrySize = Int(BEEHIVE_TYPE_REFERENCE_SIZE)
        entries.reserveCapacity(entries.count + bytes.count / entrySize)
        var offset = 0
        while offset + 8 <= bytes.count {
            let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard key != 0 else {
                offset += 8
                continue
            }
            guard offset + entrySize <= bytes.count else { return }
            let address = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt.self)
            if let pointer = UnsafeRawPointer(bitPattern: address) {
                entries.append(Entry(hash: key, function: unsafeBitCast(pointer, to: Function.self)))
            }
            offset += entrySize
        }
    }

    /// 64-bit FNV-1a of the name's UTF-8 bytes, never 0 (0 marks padding); the macros compute the same.
    package static func hash(_ name: String) -> UInt64 {
        var name = name
        // Over the contiguous bytes: through the UTF-8 view, each byte went through the view's index checks.
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return hash == 0 ? 1 : hash
        }
    }
}
