@_spi(BeeHiveInternals) import BeeHiveRegistry

@_spi(BeeHiveInternals)
extension ModuleManager: RecordConsumer {
    /// One module registered from a `BeeHiveMod`/`BeeHiveModule` record.
    public struct Token: Sendable, Hashable {
        let entry: ModuleEntry

        public static func == (lhs: Token, rhs: Token) -> Bool { lhs.entry === rhs.entry }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(entry)) }
    }

    public typealias Diagnostic = ModuleDiagnostic

    public func consumes(_ record: AnnotationRecord) -> Bool {
        record.kind == .module
    }

    /// Registers the records' modules together (after `start()`, they catch up on setUp, init and splash
    /// before this returns). A type that does not resolve or is no `Module`, or a module that would close a
    /// dependency cycle, is refused; after start, one whose dependency is not registered is pending.
    public func register(_ records: [AnnotationRecord]) -> [RecordOutcome<Token, ModuleDiagnostic>] {
        // Refusals and candidates are kept apart with their record positions and merged at the end: an array
        // of optional outcomes, or of `(index, candidate)` tuples, is a type the runtime builds from its
        // mangled name at the first start-up registration.
        var refusals: [ModuleDiagnostic] = []
        var refusedIndices: [Int] = []
        var candidates: [Candidate] = []
        var candidateIndices: [Int] = []
        for (index, record) in records.enumerated() {
            let source = ModuleSource.annotation(record.origin)
            guard case .module(let annotation) = record.payload else {
                refusals.append(ModuleDiagnostic(.rejectedRecord(.notAModule(name: record.text, source: source))))
                refusedIndices.append(index)
                continue
            }
            do throws(ModuleError) {
                let type = try Self.resolve(annotation.typeName, source: source, origin: record.origin)
                candidates.append(
                    Candidate(
                        type: type, instance: nil, level: annotation.level, priority: annotation.priority,
                        isAsync: annotation.isAsync, source: source, annotatedDependencies: annotation.dependencies))
                candidateIndices.append(index)
            } catch {
                refusals.append(ModuleDiagnostic(.rejectedRecord(error)))
                refusedIndices.append(index)
            }
        }
        var candidateOutcomes: [RecordOutcome<Token, ModuleDiagnostic>] = []
        if !candidates.isEmpty {
            candidateOutcomes.reserveCapacity(candidates.count)
            // With `waitForMissing`, refusals come back as outcomes; a failing hook is reported by the launch
            // itself.
            do {
                let admitted = try admit(candidates, waitForMissing: true).outcomes
                for (candidate, admission) in zip(candidates, admitted) {
                    switch admission {
                    case .registered(let entry):
                        candidateOutcomes.append(.registered(Token(entry: entry)))
                    case .duplicate(let diagnostic):
                        candidateOutcomes.append(.refused(diagnostic))
                    case .waiting(let dependency):
                        candidateOutcomes.append(
                            .pending(
                                ModuleDiagnostic(
                                    .waitingForDependency(
                                        module: candidate.type.moduleName, dependency: dependency, source: candidate.source))))
                    case .cycle(let cycle):
                        candidateOutcomes.append(.refused(ModuleDiagnostic(.rejectedRecord(.dependencyCycle(cycle)))))
                    }
                }
            } catch {
                candidateOutcomes = Array(repeating: .refused(ModuleDiagnostic(.rejectedRecord(error))), count: candidates.count)
            }
        }
        var outcomes: [RecordOutcome<Token, ModuleDiagnostic>] = []
        outcomes.reserveCapacity(records.count)
        var nextCandidate = 0
        var nextRefusal = 0
        for index in records.indices {
            if nextCandidate < candidateIndices.count && candidateIndices[nextCandidate] == index {
                outcomes.append(candidateOutcomes[nextCandidate])
                nextCandidate += 1
            } else {
                outcomes.append(.refused(refusals[nextRefusal]))
                nextRefusal += 1
            }
        }
        for case .refused(let diagnostic) in outcomes {
            if case .rejectedRecord = diagnostic.kind { log.report(diagnostic) }
        }
        return outcomes
    }

    /// Unregisters the modules in reverse launch order: tearDown, then unmount, for those set up.
    public func unregister(_ tokens: [Token]) -> [ModuleDiagnostic] {
        let leaving = Set(tokens.map { ObjectIdentifier($0.entry) })
        let ordered = state.withLock { state in
            Self.snapshot(of: &state).entries.filter { leaving.contains(ObjectIdentifier($0)) }
        }
        var diagnostics: [ModuleDiagnostic] = []
        for entry in ordered.reversed() {
            do {
                try unregister(entry)
            } catch {
                diagnostics.append(ModuleDiagnostic(.rejectedRecord(error)))
            }
        }
        return diagnostics
    }
}
