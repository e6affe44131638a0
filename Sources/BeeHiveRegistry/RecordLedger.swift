import BeeHiveLocks

/// Which record became which registration in one consumer, and which records wait to be registered: the one
/// place that bookkeeping lives. Each manager owns one, which its `apply(_:)` and the hub feeding it both use,
/// so a record fed both ways is registered once.
///
/// The ledger holds no reference to its consumer (the consumer is passed to each call), so a manager owning
/// its ledger makes no cycle. Calls into the consumer run outside the ledger's lock.
///
/// Its code is inlinable so that each hub and manager gets it specialized for its consumer: unspecialized, every
/// dictionary operation looked up the metadata of `[AnnotationRecord: Token]` and moved entries through value
/// witnesses, which for the 600 records of a start-up cost more than registering them.
@_spi(BeeHiveInternals)
public final class RecordLedger<Consumer: RecordConsumer>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var tokens: [AnnotationRecord: Consumer.Token] = [:]
        /// Registrations not yet in `tokens`: those made while nothing was registered, until something looks
        /// a record up. A start-up registers one batch and never looks one up, and the first dictionary keyed
        /// by records looks up `AnnotationRecord: Hashable` at run time, one scan of every conformance record of
        /// the process, which registering in code never pays.
        /// Kept as two arrays, not one of `(record, token)` tuples, whose metadata the runtime builds from its
        /// mangled name for each consumer at the first start-up.
        @usableFromInline var unindexedRecords: [AnnotationRecord] = []
        @usableFromInline var unindexedTokens: [Consumer.Token] = []
        /// Records whose consumer said `.pending`, in arrival order.
        @usableFromInline var pending: [AnnotationRecord] = []
        /// Why the records refused or pending now were, while their objects stay loaded.
        @usableFromInline var problems: [AnnotationRecord: Consumer.Diagnostic] = [:]

        @inlinable init() {}

        @inlinable var isEmpty: Bool { tokens.isEmpty && unindexedRecords.isEmpty }

        /// `tokens` with every registration in it, for a lookup.
        @inlinable mutating func indexedTokens() -> [AnnotationRecord: Consumer.Token] {
            if !unindexedRecords.isEmpty {
                tokens.reserveCapacity(tokens.count + unindexedRecords.count)
                for (record, token) in zip(unindexedRecords, unindexedTokens) { tokens[record] = token }
                unindexedRecords = []
                unindexedTokens = []
            }
            return tokens
        }

        /// Every registration, in no order.
        @inlinable var allTokens: (records: [AnnotationRecord], tokens: [Consumer.Token]) {
            // A dictionary's keys and values views list its entries in the same order.
            tokens.isEmpty
                ? (unindexedRecords, unindexedTokens) : (unindexedRecords + tokens.keys, unindexedTokens + tokens.values)
        }
    }

    @usableFromInline let state = Locked(State())

    @inlinable
    public init() {}

    /// Unregisters the removed records, then registers the added ones (and those still pending).
    @inlinable @discardableResult
    public func apply(_ update: RegistryUpdate, to consumer: Consumer) -> [Consumer.Diagnostic] {
        unregister(update.removed, from: consumer) + register(update.added, to: consumer)
    }

    /// Registers the records that are for `consumer`, together with the records still pending; returns the
    /// refusals, and a diagnostic for each record that starts waiting (not again while it waits). A record
    /// already registered or waiting is not registered again.
    @inlinable @discardableResult
    public func register(_ records: [AnnotationRecord], to consumer: Consumer) -> [Consumer.Diagnostic] {
        // Asked before the lock: a consumer of a third party is its own code. By index: `filter` copied every
        // record it looked at (a retain and a release each), though only a consumer's own kind is kept.
        var own: [Int] = []
        for index in records.indices where consumer.consumes(records[index]) { own.append(index) }
        let (waiting, fresh) = state.withLock { state in
            // Each lookup hashes a record's text: none is needed while nothing is registered or pending.
            let known = state.pending.isEmpty ? [] : Set(state.pending)
            let tokens = state.isEmpty ? [:] : state.indexedTokens()
            var fresh: [AnnotationRecord] = []
            for index in own
            where (known.isEmpty || !known.contains(records[index])) && (tokens.isEmpty || tokens[records[index]] == nil) {
                fresh.append(records[index])
            }
            defer { state.pending.removeAll() }
            return (state.pending, fresh)
        }
        // `waiting + fresh` copies every record (a retain each) even when nothing waits, as at start-up.
        let offered = waiting.isEmpty ? fresh : waiting + fresh
        guard !offered.isEmpty else { return [] }
        let outcomes = consumer.register(offered)
        var diagnostics: [Consumer.Diagnostic] = []
        state.withLock { state in
            // Each hash of a record reads its whole text: grow the table once, and look for a stale problem
            // only when there are problems. Registrations wait unindexed while nothing was registered.
            let indexing = !state.isEmpty
            if indexing {
                state.tokens.reserveCapacity(state.tokens.count + offered.count)
            } else {
                state.unindexedRecords.reserveCapacity(offered.count)
                state.unindexedTokens.reserveCapacity(offered.count)
            }
            for (index, (record, outcome)) in zip(offered, outcomes).enumerated() {
                switch outcome {
                case .registered(let token):
                    if indexing {
                        state.tokens[record] = token
                    } else {
                        state.unindexedRecords.append(record)
                        state.unindexedTokens.append(token)
                    }
                    if !state.problems.isEmpty { state.problems[record] = nil }
                case .refused(let diagnostic):
                    diagnostics.append(diagnostic)
                    state.problems[record] = diagnostic
                case .pending(let diagnostic):
                    state.pending.append(record)
                    state.problems[record] = diagnostic
                    if index >= waiting.count { diagnostics.append(diagnostic) }
                }
            }
        }
        return diagnostics
    }

    /// Unregisters what the records became, and forgets those of them still pending.
    @inlinable @discardableResult
    public func unregister(_ records: [AnnotationRecord], from consumer: Consumer) -> [Consumer.Diagnostic] {
        let leaving = records.filter(consumer.consumes)
        guard !leaving.isEmpty else { return [] }
        let tokens = state.withLock { state in
            let gone = Set(leaving)
            state.pending.removeAll { gone.contains($0) }
            for record in leaving { state.problems[record] = nil }
            _ = state.indexedTokens()
            return leaving.compactMap { state.tokens.removeValue(forKey: $0) }
        }
        return tokens.isEmpty ? [] : consumer.unregister(tokens)
    }

    /// The records waiting for something to arrive (a module's dependency).
    @inlinable
    public var pendingRecords: [AnnotationRecord] {
        state.withLock { $0.pending }
    }

    /// What is wrong now: a diagnostic for each record of a loaded object that was refused or still waits,
    /// in record order.
    @inlinable
    public var problems: [(record: AnnotationRecord, diagnostic: Consumer.Diagnostic)] {
        state.withLock { state in Self.inRecordOrder(state.problems.map { ($0.key, $0.value) }) }
    }

    /// Every record registered, with what it became.
    @inlinable
    public var registrations: [(record: AnnotationRecord, token: Consumer.Token)] {
        state.withLock { state in
            let all = state.allTokens
            return Self.inRecordOrder(Array(zip(all.records, all.tokens)))
        }
    }

    /// Every record registered, with what it became, in no order: for a caller that checks each and orders
    /// only what it keeps (ordering all of them cost more than checking them).
    @inlinable
    package var unorderedRegistrations: (records: [AnnotationRecord], tokens: [Consumer.Token]) {
        state.withLock { $0.allTokens }
    }

    /// The entries in record order. The sort moves plain keys, not the entries, which are larger.
    @inlinable
    static func inRecordOrder<Value>(_ unordered: [(AnnotationRecord, Value)]) -> [(AnnotationRecord, Value)] {
        let order = unordered.indices.map { (origin: unordered[$0].0.origin, index: $0) }.sorted { lhs, rhs in
            inRecordOrder(lhs.origin, rhs.origin)
        }
        return order.map { unordered[$0.index] }
    }

    /// By object, then by section and place in it. The records of one object share its path and those of one
    /// section its name, so these are compared for equality first, which is cheap, rather than ordered
    /// character by character.
    @inlinable
    package static func inRecordOrder(_ left: RecordOrigin, _ right: RecordOrigin) -> Bool {
        if left.objectPath != right.objectPath { return left.objectPath < right.objectPath }
        if left.section != right.section { return left.section < right.section }
        return left.offset < right.offset
    }
}
