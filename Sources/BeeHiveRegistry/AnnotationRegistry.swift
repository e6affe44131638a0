import BeeHiveLocks
#if canImport(Glibc)
import Glibc
#endif

/// Every annotation record of every loaded object, kept current as objects are loaded and unloaded.
///
/// It keeps every record, duplicates included, and reports duplicates as diagnostics that name both objects:
/// what a duplicate means is the business of the module and service managers and their policies.
/// Records come out in an order that does not depend on link or load order.
public final class AnnotationRegistry: Sendable {
    /// The registry of this process's loaded objects. Its first read (or `refresh()`, or `snapshot()`) takes in
    /// what the shim's constructor found before `main`; call `refresh()` again after loading plugins.
    public static let shared = AnnotationRegistry(source: LoadedObjectsSource())

    private struct State {
        var objects = ObjectTable<ObjectAnnotations>()
        /// Every record of `objects`, in the order `records` promises; rebuilt when objects come or go.
        var records: [AnnotationRecord] = []
        var diagnostics: BoundedHistory<RegistryDiagnostic>
        /// Objects whose records were retired while the loader kept them mapped (Swift libraries stay mapped
        /// after dlclose); they come back with `reinstateObjects(atPath:)`.
        var retired = ObjectTable<ObjectAnnotations>()
        /// Whether the source was ever polled: until then, a read polls it first, so that `records` never
        /// answers empty only because nobody called `refresh()` yet.
        var polled = false
    }

    private let source: any AnnotationSource
    private let state: Locked<State>

    /// `diagnosticLimit` is how many diagnostics `diagnostics` keeps; the oldest go first, counted in
    /// `droppedDiagnostics`.
    @_spi(BeeHiveInternals) @_spi(Benchmarks)
    public init(source: some AnnotationSource, diagnosticLimit: Int = 1000) {
        self.source = source
        state = Locked(State(diagnostics: BoundedHistory(limit: diagnosticLimit)))
    }

    /// Takes in what was loaded or unloaded since the last refresh. Cheap when nothing changed.
    @discardableResult
    public func refresh() -> RegistryUpdate {
        state.withLock { state in poll(&state) }
    }

    private func poll(_ state: inout State) -> RegistryUpdate {
        state.polled = true
        return apply(source.poll(), to: &state)
    }

    /// The state for a read: polled first if it never was. That first update reaches no caller; a consumer fed
    /// by updates starts from `snapshot()`, which holds it.
    private func read<Value>(_ body: (State) -> Value) -> Value {
        state.withLock { state in
            if !state.polled { _ = poll(&state) }
            return body(state)
        }
    }

    /// Refreshes, then returns everything the registry holds as one update: every current object and record
    /// as arriving, and the diagnostics still kept. This is what a consumer that starts now needs, however
    /// often the registry was refreshed before: apply one snapshot to each manager fed without `Hive`, then
    /// the update of each later `refresh()` to each of them.
    public func snapshot() -> RegistryUpdate {
        state.withLock { state in
            // The snapshot holds everything, so the refresh's own update adds nothing to it.
            _ = poll(&state)
            var update = RegistryUpdate()
            update.loadedObjects = state.objects.values.map(\.object).sorted { ($0.path, $0.id) < ($1.path, $1.id) }
            update.added = state.records
            update.diagnostics = state.diagnostics.entries
            return update
        }
    }

    /// Withdraws the records of the objects loaded from `path`, before their plugin is closed: the code
    /// behind those records is about to go away, whether or not the loader really unmaps the file.
    @discardableResult
    package func retireObjects(atPath path: String) -> RegistryUpdate {
        state.withLock { state in
            var update = RegistryUpdate()
            for (id, object) in zip(state.objects.ids, state.objects.values) where object.object.path == path {
                state.objects[id] = nil
                state.retired[id] = object
                update.unloadedObjects.append(object.object)
                update.removed += object.records
            }
            if !update.unloadedObjects.isEmpty {
                update.removed = Self.ordered(update.removed)
                Self.remove(update.removed, from: &state.records, objectPath: path)
            }
            return update
        }
    }

    /// Brings back retired objects loaded from `path` that the loader kept mapped and that were opened again.
    @discardableResult
    package func reinstateObjects(atPath path: String) -> RegistryUpdate {
        state.withLock { state in
            var update = RegistryUpdate()
            for (id, object) in zip(state.retired.ids, state.retired.values) where object.object.path == path {
                state.retired[id] = nil
                state.objects[id] = object
                update.loadedObjects.append(object.object)
                update.added += object.records
            }
            if !update.loadedObjects.isEmpty {
                update.added = Self.ordered(update.added)
                Self.merge(update.added, into: &state.records)
            }
            return update
        }
    }

    /// Every current record, ordered by kind, identity and object path. The first read takes in what discovery
    /// found before `main`; later loads arrive with `refresh()`.
    public var records: [AnnotationRecord] {
        read { $0.records }
    }

    /// The diagnostics found since the registry was made, in the order found: the newest `diagnosticLimit`.
    public var diagnostics: [RegistryDiagnostic] {
        read { $0.diagnostics.entries }
    }

    /// How many diagnostics `diagnostics` no longer holds because of its limit.
    package var droppedDiagnostics: Int {
        state.withLock { $0.diagnostics.dropped }
    }

    /// The diagnostics numbered `sequence` and later (the first diagnostic found is 0), for a reader that
    /// takes each once: those still kept, how many of them the limit let go before this read, and the number
    /// to pass next time.
    package func diagnostics(from sequence: Int) -> (diagnostics: [RegistryDiagnostic], missed: Int, next: Int) {
        state.withLock { state in
            let read = state.diagnostics.entries(from: sequence)
            return (Array(read.entries), read.missed, state.diagnostics.nextSequence)
        }
    }

    /// The annotated objects currently loaded, ordered by path.
    public var objects: [ObjectAnnotations] {
        read { state in state.objects.values.sorted { ($0.object.path, $0.object.id) < ($1.object.path, $1.object.id) } }
    }

    private func apply(_ events: [ObjectEvent], to state: inout State) -> RegistryUpdate {
        var update = RegistryUpdate()
        if events.isEmpty { return update }
        // Events are folded in order: an object loaded and unloaded again within one batch never arrives.
        var pending = ObjectTable<ObjectAnnotations>()
        for event in events {
            switch event {
            case .loaded(let annotations):
                pending[annotations.object.id] = annotations
            case .unloaded(let object):
                state.retired[object.id] = nil
                if pending.removeValue(forID: object.id) != nil { continue }
                guard let gone = state.objects.removeValue(forID: object.id) else { continue }
                update.unloadedObjects.append(gone.object)
                update.removed += gone.records
            }
        }
        // The records of the objects that stay, in order, for the duplicate check below.
        if !update.unloadedObjects.isEmpty {
            state.records = Self.ordered(state.objects.values.flatMap(\.records))
        }
        // Objects arriving together are taken in path order, so the first of two duplicates is the same
        // whatever the link order.
        let arrivals = pending.values.sorted { ($0.object.path, $0.object.id) < ($1.object.path, $1.object.id) }
        // The arrivals' sort keys are made once, for the order and for the duplicate check.
        for arrival in arrivals { update.added += arrival.records }
        let addedKeys = SortKey.keys(of: update.added)
        let order = Self.order(of: addedKeys)
        let firstObjects = Self.firstObjects(order: order, keys: addedKeys, earlier: state.records)
        var index = 0
        for arrival in arrivals {
            update.diagnostics += arrival.diagnostics
            // By position: a record is copied (a retain and a release) only for a duplicate, which is rare.
            for position in arrival.records.indices {
                if !firstObjects.isEmpty, let first = firstObjects[index] {
                    let record = arrival.records[position]
                    update.diagnostics.append(
                        RegistryDiagnostic(
                            .duplicate(record.identity, firstObject: first), objectPath: addedKeys[index].objectPath,
                            section: record.origin.section, record: record.text))
                }
                index += 1
            }
            state.objects[arrival.object.id] = arrival
            update.loadedObjects.append(arrival.object)
        }
        update.unloadedObjects.sort { ($0.path, $0.id) < ($1.path, $1.id) }
        update.added = order.map { update.added[$0] }
        update.removed = Self.ordered(update.removed)
        if !update.added.isEmpty {
            Self.merge(update.added, into: &state.records)
        }
        state.diagnostics.append(contentsOf: update.diagnostics)
        return update
    }

    /// What records are ordered by: identity (kind, name, qualifier), object path, offset.
    ///
    /// Keys compare the identity's name and qualifier as bytes, where the records lie in their sections, when
    /// every record of a batch was read in place and its name and qualifier are ASCII: ASCII orders by bytes
    /// exactly as `String` does, and making 600 identities as strings and comparing them as strings cost more
    /// than the rest of a start-up's refresh. Otherwise (records made from values, or a non-ASCII name, where
    /// `String` orders by canonical equivalence) every key of the batch holds its identity as strings. The
    /// bytes stay valid while the records do, and keys never outlive the call that made them.
    private struct SortKey {
        let kind: AnnotationKind
        let name: UnsafeRawBufferPointer
        let qualifier: UnsafeRawBufferPointer
        /// The identity as strings, when the batch is compared as strings.
        let identity: RecordIdentity?
        let objectPath: String
        let offset: Int

        /// One key per record, in order: compared as bytes when all of them can be.
        static func keys(of records: [AnnotationRecord]) -> [SortKey] {
            var keys: [SortKey] = []
            keys.reserveCapacity(records.count)
            for index in records.indices {
                guard let bytes = records[index].identityBytes, isASCII(bytes.name), isASCII(bytes.qualifier) else {
                    return records.map { record in
                        let origin = record.origin
                        return SortKey(
                            kind: record.kind, name: UnsafeRawBufferPointer(start: nil, count: 0),
                            qualifier: UnsafeRawBufferPointer(start: nil, count: 0), identity: record.identity,
                            objectPath: origin.objectPath, offset: origin.offset)
                    }
                }
                keys.append(
                    SortKey(
                        kind: records[index].kind, name: bytes.name, qualifier: bytes.qualifier, identity: nil,
                        objectPath: bytes.objectPath, offset: bytes.offset))
            }
            return keys
        }

        private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
            bytes.allSatisfy { $0 < 0x80 }
        }

        /// The identity as strings, made for a key compared as bytes.
        var recordIdentity: RecordIdentity {
            identity
                ?? RecordIdentity(
                    kind: kind, name: String(decoding: name, as: UTF8.self), qualifier: String(decoding: qualifier, as: UTF8.self))
        }

        /// Whether the keys at two places of a buffer have the same identity, read where they lie.
        static func sameIdentity(_ keys: UnsafeBufferPointer<SortKey>, _ lhs: Int, _ rhs: Int) -> Bool {
            guard keys[lhs].kind == keys[rhs].kind else { return false }
            if keys[lhs].identity != nil {
                return keys[lhs].identity!.name == keys[rhs].identity!.name
                    && keys[lhs].identity!.qualifier == keys[rhs].identity!.qualifier
            }
            return compare(keys[lhs].name, keys[rhs].name) == 0 && compare(keys[lhs].qualifier, keys[rhs].qualifier) == 0
        }

        /// The order rule, for the keys at two places of a buffer, each field read where it lies: `RecordIdentity`'s
        /// order (kind, name, qualifier), then the object path, then the offset. Not `lhs.identity < rhs.identity`
        /// on keys passed whole: the optimizer copied each key out of the buffer for the call, retaining and
        /// releasing four strings per comparison (11,747 retains in a start-up of 600 records, per a uprobe on
        /// `swift_retain`; none this way). The sort and `merged` both use this, so they agree.
        static func precedes(_ keys: UnsafeBufferPointer<SortKey>, _ lhs: Int, _ rhs: Int) -> Bool {
            if keys[lhs].kind != keys[rhs].kind { return keys[lhs].kind.order < keys[rhs].kind.order }
            if keys[lhs].identity != nil {
                if keys[lhs].identity!.name != keys[rhs].identity!.name { return keys[lhs].identity!.name < keys[rhs].identity!.name }
                if keys[lhs].identity!.qualifier != keys[rhs].identity!.qualifier {
                    return keys[lhs].identity!.qualifier < keys[rhs].identity!.qualifier
                }
            } else {
                let name = compare(keys[lhs].name, keys[rhs].name)
                if name != 0 { return name < 0 }
                let qualifier = compare(keys[lhs].qualifier, keys[rhs].qualifier)
                if qualifier != 0 { return qualifier < 0 }
            }
            if keys[lhs].objectPath != keys[rhs].objectPath { return keys[lhs].objectPath < keys[rhs].objectPath }
            return keys[lhs].offset < keys[rhs].offset
        }

        /// Byte-wise order, a shorter prefix first.
        private static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
            let common = min(lhs.count, rhs.count)
            if common > 0 {
                let result = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
                if result != 0 { return Int(result) }
            }
            return lhs.count - rhs.count
        }
    }

    /// Whether `lhs` comes before `rhs`: the order of `SortKey.precedes`, for two records.
    private static func precedes(_ lhs: AnnotationRecord, _ rhs: AnnotationRecord) -> Bool {
        SortKey.keys(of: [lhs, rhs]).withUnsafeBufferPointer { SortKey.precedes($0, 0, 1) }
    }

    /// Sorts indices by precomputed keys: records are large, and copying them in every comparison dominated.
    private static func ordered(_ records: [AnnotationRecord]) -> [AnnotationRecord] {
        order(of: SortKey.keys(of: records)).map { records[$0] }
    }

    /// The positions of `keys` in key order; keys that tie keep their order.
    private static func order(of keys: [SortKey]) -> [Int] {
        keys.withUnsafeBufferPointer { keys in
            keys.indices.sorted { SortKey.precedes(keys, $0, $1) }
        }
    }

    /// For each arriving record that duplicates another, the object path of the first record declaring the
    /// same thing: one of the `earlier` records' (the first by path), or else the arrival that comes first.
    /// Empty when no record is a duplicate, as at a start-up.
    ///
    /// Arrivals that declare the same thing are neighbours in key order, in arrival order among themselves, so
    /// they are found without hashing, comparing keys where they lie (copying an identity out of the buffer
    /// retained and released its two strings, for every record). The earlier records are in key order too, so
    /// each group of arrivals bisects them: a plugin loaded into a process of thousands of records looks at a
    /// few dozen of them, not at every one.
    private static func firstObjects(
        order: [Int], keys: [SortKey], earlier: [AnnotationRecord]
    ) -> [String?] {
        var firstObjects: [String?] = []
        keys.withUnsafeBufferPointer { keys in
            var start = 0
            while start < order.count {
                var end = start + 1
                while end < order.count && SortKey.sameIdentity(keys, order[start], order[end]) { end += 1 }
                let before = earlier.isEmpty ? nil : firstObjectPath(of: keys[order[start]].recordIdentity, in: earlier)
                if before != nil || end - start > 1 {
                    if firstObjects.isEmpty { firstObjects = [String?](repeating: nil, count: keys.count) }
                    let first = before ?? keys[order[start]].objectPath
                    for position in (before == nil ? start + 1 : start)..<end { firstObjects[order[position]] = first }
                }
                start = end
            }
        }
        return firstObjects
    }

    /// The object path of the first of `records` (in key order) that declares `identity`: among records that
    /// declare the same thing, the one with the least path comes first.
    private static func firstObjectPath(of identity: RecordIdentity, in records: [AnnotationRecord]) -> String? {
        let first = partitionPoint(of: records) { $0.identity < identity }
        guard first < records.count, records[first].identity == identity else { return nil }
        return records[first].origin.objectPath
    }

    /// The first position of ordered `records`, from `start` on, at which `isBefore` is false: it holds for
    /// the records before some point of the order and for none after, so a bisection finds that point.
    private static func partitionPoint(
        of records: [AnnotationRecord], from start: Int = 0, _ isBefore: (AnnotationRecord) -> Bool
    ) -> Int {
        var low = start
        var high = records.count
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(records[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Merges ordered `second` into ordered `records`; on ties, the records held come first.
    private static func merge(_ second: [AnnotationRecord], into records: inout [AnnotationRecord]) {
        // The first refresh: nothing to merge with, and no record to copy one by one.
        if records.isEmpty {
            records = second
            return
        }
        // A few records into many, as when a plugin loads into a large process: each goes in, in place, where a
        // bisection finds, which compares a few dozen records where a merge makes a key for every one.
        if second.count * 16 < records.count {
            var next = 0
            for record in second {
                // `second` is ordered, so each record goes in after the one before it, and after its ties.
                let place = partitionPoint(of: records, from: next) { !precedes(record, $0) }
                records.insert(record, at: place)
                next = place + 1
            }
            return
        }
        records = merged(records, second)
    }

    /// Removes ordered `removed`, every record of the objects that left, from ordered `records`.
    private static func remove(_ removed: [AnnotationRecord], from records: inout [AnnotationRecord], objectPath: String) {
        // A few records out of many: each is found by bisection, as `merge` puts them in. Records that tie are
        // the same declaration at the same place of objects with the same path, which all leave together.
        if removed.count * 16 < records.count {
            let expected = records.count - removed.count
            for record in removed {
                let place = partitionPoint(of: records) { precedes($0, record) }
                // Not where the order puts it, which the model test rules out: the plain scan removes the rest.
                guard place < records.count, records[place].objectPath == objectPath else { break }
                records.remove(at: place)
            }
            if records.count == expected { return }
        }
        records.removeAll { $0.objectPath == objectPath }
    }

    /// Merges two ordered arrays; on ties, `first`'s records come first.
    private static func merged(_ first: [AnnotationRecord], _ second: [AnnotationRecord]) -> [AnnotationRecord] {
        var result: [AnnotationRecord] = []
        result.reserveCapacity(first.count + second.count)
        // The keys of `first`, then those of `second`.
        let keys = SortKey.keys(of: first + second)
        var i = 0
        var j = 0
        keys.withUnsafeBufferPointer { keys in
            while i < first.count && j < second.count {
                if SortKey.precedes(keys, first.count + j, i) {
                    result.append(second[j])
                    j += 1
                } else {
                    result.append(first[i])
                    i += 1
                }
            }
        }
        result += first[i...]
        result += second[j...]
        return result
    }
}
