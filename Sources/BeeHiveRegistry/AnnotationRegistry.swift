import Synchronization

/// Every annotation record of every loaded object, kept current as objects are loaded and unloaded.
///
/// It keeps every record, duplicates included, and reports duplicates as diagnostics that name both objects:
/// what a duplicate means is the business of the module and service managers and their policies.
/// Records come out in an order that does not depend on link or load order.
public final class AnnotationRegistry: Sendable {
    /// The registry of this process's loaded objects, holding what the shim's constructor found before `main`.
    /// Call `refresh()` after loading plugins.
    public static let shared: AnnotationRegistry = {
        let registry = AnnotationRegistry(source: LoadedObjectsSource())
        registry.refresh()
        return registry
    }()

    private struct State {
        var objects: [UInt64: ObjectAnnotations] = [:]
        var diagnostics: [RegistryDiagnostic] = []
    }

    private let source: any AnnotationSource
    private let state = Mutex(State())

    public init(source: some AnnotationSource) {
        self.source = source
    }

    /// Takes in what was loaded or unloaded since the last refresh. Cheap when nothing changed.
    @discardableResult
    public func refresh() -> RegistryUpdate {
        state.withLock { state in
            apply(source.poll(), to: &state)
        }
    }

    /// Every current record, ordered by kind, key and object path.
    public var records: [AnnotationRecord] {
        state.withLock { state in Self.ordered(state.objects.values.flatMap(\.records)) }
    }

    /// Every diagnostic since the registry was made, in the order found.
    public var diagnostics: [RegistryDiagnostic] {
        state.withLock { $0.diagnostics }
    }

    /// The annotated objects currently loaded, ordered by path.
    public var objects: [ObjectAnnotations] {
        state.withLock { state in state.objects.values.sorted { ($0.object.path, $0.object.id) < ($1.object.path, $1.object.id) } }
    }

    private func apply(_ events: [ObjectEvent], to state: inout State) -> RegistryUpdate {
        var update = RegistryUpdate()
        // Events are folded in order: an object loaded and unloaded again within one batch never arrives.
        var pending: [UInt64: ObjectAnnotations] = [:]
        for event in events {
            switch event {
            case .loaded(let annotations):
                pending[annotations.object.id] = annotations
            case .unloaded(let object):
                if pending.removeValue(forKey: object.id) != nil { continue }
                guard let gone = state.objects.removeValue(forKey: object.id) else { continue }
                update.unloadedObjects.append(gone.object)
                update.removed += gone.records
            }
        }
        // Objects arriving together are taken in path order, so the first of two duplicates is the same
        // whatever the link order.
        let arrivals = pending.values.sorted { ($0.object.path, $0.object.id) < ($1.object.path, $1.object.id) }
        var firstSeen: [String: String] = [:]
        for object in state.objects.values.sorted(by: { $0.object.path < $1.object.path }) {
            for record in object.records where firstSeen[record.key] == nil { firstSeen[record.key] = object.object.path }
        }
        for arrival in arrivals {
            update.diagnostics += arrival.diagnostics
            for record in arrival.records {
                if let first = firstSeen[record.key] {
                    update.diagnostics.append(
                        RegistryDiagnostic(
                            .duplicate(key: record.key, firstObject: first), objectPath: record.origin.objectPath,
                            section: record.origin.section, record: record.text))
                } else {
                    firstSeen[record.key] = record.origin.objectPath
                }
            }
            state.objects[arrival.object.id] = arrival
            update.loadedObjects.append(arrival.object)
            update.added += arrival.records
        }
        update.unloadedObjects.sort { ($0.path, $0.id) < ($1.path, $1.id) }
        update.added = Self.ordered(update.added)
        update.removed = Self.ordered(update.removed)
        state.diagnostics += update.diagnostics
        return update
    }

    static func ordered(_ records: [AnnotationRecord]) -> [AnnotationRecord] {
        records.sorted {
            ($0.kind.section, $0.key, $0.origin.objectPath, $0.origin.offset)
                < ($1.kind.section, $1.key, $1.origin.objectPath, $1.origin.offset)
        }
    }
}
