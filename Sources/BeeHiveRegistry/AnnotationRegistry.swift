import Synchronization

/// Every annotation record of every loaded object, kept current as objects are loaded and unloaded.
///
/// It keeps every record, duplicates included, and reports duplicates as diagnostics that name both objects:
/// what a duplicate means is the business of the module and service managers and their policies.
/// Records come out in an order that does not depend on link or load order.
public final class AnnotationRegistry: Sendable {
    /// The registry of this process's loaded objects.
    public static let shared = AnnotationRegistry(source: LoadedObjectsSource())

    private struct State {
        var objects: [UInt64: ObjectAnnotations] = [:]
        /// Objects whose records were retired while the loader kept them mapped (Swift libraries stay mapped
        /// after dlclose); they come back with `reinstateObjects(atPath:)`.
        var retired: [UInt64: ObjectAnnotations] = [:]
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

    /// Withdraws the records of the objects loaded from `path`, before their plugin is closed: the code
    /// behind those records is about to go away, whether or not the loader really unmaps the file.
    public func retireObjects(atPath path: String) -> RegistryUpdate {
        state.withLock { state in
            var update = RegistryUpdate()
            for (id, object) in state.objects where object.object.path == path {
                state.objects[id] = nil
                state.retired[id] = object
                update.unloadedObjects.append(object.object)
                update.removed += object.records
            }
            update.removed = Self.ordered(update.removed)
            return update
        }
    }

    /// Brings back retired objects loaded from `path` that the loader kept mapped and that were opened again.
    public func reinstateObjects(atPath path: String) -> RegistryUpdate {
        state.withLock { state in
            var update = RegistryUpdate()
            for (id, object) in state.retired where object.object.path == path {
                state.retired[id] = nil
                state.objects[id] = object
                update.loadedObjects.append(object.object)
                update.added += object.records
            }
            update.added = Self.ordered(update.added)
            return update
        }
    }

    /// Every current record, ordered by kind, identity and object path.
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
        for case .unloaded(let object) in events {
            state.retired[object.id] = nil
            guard let gone = state.objects.removeValue(forKey: object.id) else { continue }
            update.unloadedObjects.append(gone.object)
            update.removed += gone.records
        }
        // Objects arriving together are taken in path order, so the first of two duplicates is the same
        // whatever the link order.
        let arrivals = events.compactMap { event -> ObjectAnnotations? in
            if case .loaded(let annotations) = event { return annotations }
            return nil
        }.sorted { ($0.object.path, $0.object.id) < ($1.object.path, $1.object.id) }
        var firstSeen: [RecordIdentity: String] = [:]
        for object in state.objects.values.sorted(by: { $0.object.path < $1.object.path }) {
            for record in object.records where firstSeen[record.identity] == nil { firstSeen[record.identity] = object.object.path }
        }
        for arrival in arrivals {
            update.diagnostics += arrival.diagnostics
            for record in arrival.records {
                if let first = firstSeen[record.identity] {
                    update.diagnostics.append(
                        RegistryDiagnostic(
                            .duplicate(record.identity, firstObject: first), objectPath: record.origin.objectPath,
                            section: record.origin.section, record: record.text))
                } else {
                    firstSeen[record.identity] = record.origin.objectPath
                }
            }
            state.objects[arrival.object.id] = arrival
            update.loadedObjects.append(arrival.object)
            update.added += arrival.records
        }
        update.added = Self.ordered(update.added)
        update.removed = Self.ordered(update.removed)
        state.diagnostics += update.diagnostics
        return update
    }

    static func ordered(_ records: [AnnotationRecord]) -> [AnnotationRecord] {
        records.map { ($0.identity, $0) }.sorted { lhs, rhs in
            if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
            return (lhs.1.origin.objectPath, lhs.1.origin.offset) < (rhs.1.origin.objectPath, rhs.1.origin.offset)
        }.map(\.1)
    }
}

/// What one refresh changed.
public struct RegistryUpdate: Sendable, Hashable {
    public var loadedObjects: [LoadedObject] = []
    public var unloadedObjects: [LoadedObject] = []
    /// Records of the objects that arrived, in a deterministic order.
    public var added: [AnnotationRecord] = []
    /// Records of the objects that went away.
    public var removed: [AnnotationRecord] = []
    public var diagnostics: [RegistryDiagnostic] = []

    public init() {}

    public var isEmpty: Bool { loadedObjects.isEmpty && unloadedObjects.isEmpty && diagnostics.isEmpty }
}
