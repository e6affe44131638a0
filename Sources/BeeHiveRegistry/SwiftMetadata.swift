import CSectionShim

/// What the registry's indexes of the process's Swift metadata (`ConformanceIndex`, `ProtocolIndex`) share:
/// counting the runtime's images, and following the ABI's relative pointers (include/swift/ABI/Metadata.h).
enum SwiftMetadata {
    /// How many Swift images the runtime knows; an index built for fewer is stale.
    static func imageCount() -> Int {
        var count = 0
        withUnsafeMutablePointer(to: &count) { pointer in
            bh_swift_enumerate_metadata_sections({ _, context in
                context?.assumingMemoryBound(to: Int.self).pointee += 1
                return true
            }, pointer)
        }
        return count
    }

    static func relativeDirect(_ field: UnsafeRawPointer) -> UnsafeRawPointer {
        field + Int(field.load(as: Int32.self))
    }

    /// A relative pointer whose low bit says the target is a pointer to the value rather than the value.
    static func relativeIndirectable(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = Int(field.load(as: Int32.self))
        guard offset != 0 else { return nil }
        let target = field + (offset & ~1)
        return offset & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
    }
}
