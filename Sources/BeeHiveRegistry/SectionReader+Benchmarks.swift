import CSectionShim

/// What only the benchmarks use. The Benchmarks package is another package, which `package` access does not
/// reach, so these are SPI: public in the binary, visible only to `@_spi(Benchmarks) import BeeHiveRegistry`.
extension SectionReader {
    /// Reads every annotated object loaded now, from scratch, without touching the process-wide set that
    /// `LoadedObjectsSource` reads.
    @_spi(Benchmarks)
    public static func scanLoadedObjects() -> [ObjectAnnotations] {
        guard let snapshot = bh_snapshot_read_loaded_objects() else { return [] }
        defer { bh_snapshot_free(snapshot) }
        // Sized once: grown by appending, the array was reallocated about log2(objects) times per scan.
        var objects: [ObjectAnnotations] = []
        objects.reserveCapacity(snapshot.pointee.count)
        for index in 0..<snapshot.pointee.count {
            if let object = snapshot.pointee.objects[index] { objects.append(annotations(of: object)) }
        }
        return objects
    }

    /// How long the constructor's walk took before `main`, in nanoseconds.
    @_spi(Benchmarks)
    public static var constructorNanoseconds: UInt64 { bh_constructor_nanoseconds() }
}
