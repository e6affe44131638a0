import BeeHiveLocks

/// Which record became which registration in one consumer, and which records wait to be registered: the one
/// place that bookkeeping lives. The hub keeps a ledger per manager; a manager used without the hub keeps one
/// for its `apply(_:)`.
///
/// The ledger holds no reference to its consumer (the consumer is passed to each call), so a manager owning
/// its ledger makes no cycle. Calls into the consumer run outside the ledger's lock.
public final class RecordLedger<Consumer: RecordConsumer>: Sendable {
    private struct State {
        var tokens: [AnnotationRecord: Consumer.Token] = [:]
        /// Records whose consumer said `.pending`, in arrival order.
        var pending: [AnnotationRecord] = []
        /// Why the records refused or pending now were, while their objects stay loaded.
        var problems: [AnnotationRecord: Consumer.Diagnostic] = [:]
    }

    private let state = Locked(State())

    public init() {}

    /// Unregisters the removed records, then registers the added ones (and those still pending).
    @discardableResult
    public func apply(_ update: RegistryUpdate, to consumer: Consumer) -> [Consumer.Diagnostic] {
        unregister(update.removed, from: consumer) + register(update.added, to: consumer)
    }

    /// Registers the records that are for `consumer`, together with the records still pending; returns the
    /// refusals, and a diagnostic for each record that starts waiting (not again while it waits). A record
    /// already registered or waiting is not registered again.
    @discardableResult
    public func register(_ records: [AnnotationRecord], to consumer: Consumer) -> [Consumer.Diagnostic] {
        let (waiting, fresh) = state.withLock { state in
            let known = Set(state.pending)
            let fresh = records.filter { consumer.consumes($0) && state.tokens[$0] == nil && !known.contains($0) }
            defer { state.pending.removeAll() }
            return (state.pending, fresh)
        }
        let offered = waiting + fresh
        guard !offered.isEmpty else { return [] }
        let outcomes = consumer.register(offered)
        var diagnostics: [Consumer.Diagnostic] = []
        state.withLock { state in
            for (index, (record, outcome)) in zip(offered, outcomes).enumerated() {
                switch outcome {
                case .registered(let token):
                    state.tokens[record] = token
                    state.problems[record] = nil
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
    @discardableResult
    public func unregister(_ records: [AnnotationRecord], from consumer: Consumer) -> [Consumer.Diagnostic] {
        let leaving = records.filter(consumer.consumes)
        guard !leaving.isEmpty else { return [] }
        let tokens = state.withLock { state in
            let gone = Set(leaving)
            state.pending.removeAll { gone.contains($0) }
            for record in leaving { state.problems[record] = nil }
            return leaving.compactMap { state.tokens.removeValue(forKey: $0) }
        }
        return tokens.isEmpty ? [] : consumer.unregister(tokens)
    }

    /// The records waiting for something to arrive (a module's dependency).
    public var pendingRecords: [AnnotationRecord] {
        state.withLock { $0.pending }
    }

    /// What is wrong now: a diagnostic for each record of a loaded object that was refused or still waits,
    /// in record order.
    public var problems: [(record: AnnotationRecord, diagnostic: Consumer.Diagnostic)] {
        state.withLock { state in
            state.problems.map { ($0.key, $0.value) }.sorted { Self.inRecordOrder($0.0, $1.0) }
        }
    }

    /// Every record registered, with what it became.
    public var registrations: [(record: AnnotationRecord, token: Consumer.Token)] {
        state.withLock { state in
            state.tokens.map { ($0.key, $0.value) }.sorted { Self.inRecordOrder($0.0, $1.0) }
        }
    }

    /// By object, then by place in the section. The records of one object share its path, so the paths are
    /// compared for equality first, which is cheap, rather than ordered character by character.
    private static func inRecordOrder(_ lhs: AnnotationRecord, _ rhs: AnnotationRecord) -> Bool {
        let left = lhs.origin, right = rhs.origin
        if left.objectPath == right.objectPath { return left.offset < right.offset }
        return left.objectPath < right.objectPath
    }
}
