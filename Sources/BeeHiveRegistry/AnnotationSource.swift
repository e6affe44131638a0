import BeeHiveLocks
import CSectionShim

/// Where a registry gets object events from. The process's loaded objects in production; anything in tests.
@_spi(BeeHiveInternals) @_spi(Benchmarks)
public protocol AnnotationSource: Sendable {
    /// The objects loaded and unloaded since the previous call.
    func poll() -> [ObjectEvent]
}

/// The objects loaded in this process, found by the shim's constructor and by later rescans.
///
/// The shim keeps one set of the annotated objects loaded now; each source diffs it against what it saw
/// last, so any number of sources each see every load and unload.
@_spi(BeeHiveInternals) @_spi(Benchmarks)
public final class LoadedObjectsSource: AnnotationSource {
    private struct Seen {
        var generation: UInt64?
        var objects = ObjectTable<LoadedObject>()
    }

    private let seen = Locked(Seen())

    public init() {}

    public func poll() -> [ObjectEvent] {
        bh_refresh()
        guard let snapshot = bh_snapshot_take() else { return [] }
        defer { bh_snapshot_free(snapshot) }
        return seen.withLock { seen in
            let generation = snapshot.pointee.generation
            if seen.generation == generation { return [] }
            seen.generation = generation
            var current = ObjectTable<LoadedObject>()
            var loaded: [ObjectEvent] = []
            for index in 0..<snapshot.pointee.count {
                guard let object = snapshot.pointee.objects[index] else { continue }
                let id = object.pointee.id
                if let known = seen.objects[id] {
                    current[id] = known
                } else {
                    let annotations = SectionReader.annotations(of: object)
                    current[id] = annotations.object
                    loaded.append(.loaded(annotations))
                }
            }
            let gone = seen.objects.values.filter { !current.contains(id: $0.id) }
            seen.objects = current
            return gone.map { .unloaded($0) } + loaded
        }
    }
}
