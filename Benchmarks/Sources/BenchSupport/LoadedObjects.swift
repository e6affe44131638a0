import CBenchLibelf

/// The objects loaded in this process, as the dynamic loader reports them.
public enum LoadedObjects {
    /// How many objects `dl_iterate_phdr` reports, the executable and the vDSO included.
    public static var count: Int { bench_loaded_object_count() }

    /// The peer discovery: every loaded object opened with libelf and its annotation sections copied.
    /// Returns the number of objects opened and the annotation bytes copied.
    @discardableResult
    public static func readEveryObjectWithLibelf() -> (objects: Int, bytes: Int) {
        var bytes = 0
        let objects = bench_libelf_read_every_loaded_object(&bytes)
        return (objects, bytes)
    }
}
