import BeeHiveRegistry

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
        var outcomes = [RecordOutcome<Token, ModuleDiagnostic>?](repeating: nil, count: records.count)
        // Two arrays, not one of `(index, candidate)` tuples, whose metadata the runtime would build from its
        // mangled name at the first start-up registration.
        var candidates: [Candidate] = []
        var candidateIndices: [Int] = []
        for (index, record) in records.enumerated() {
            let source = ModuleSource.annotation(record.origin)
            guard case .module(let annotation) = record.payload else {
                outcomes[index] = .refused(ModuleDiagnostic(.rejectedRecord(.notAModule(name: record.text, source: source))))
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
                outcomes[index] = .refused(ModuleDiagnostic(.rejectedRecord(error)))
            }
        }
        if !candidates.isEmpty {
            // With `waitForMissing`, refusals come back as outcomes; a failing hook is reported by the launch
            // itself.
            let admitted: [Admission]
            do {
                admitted = try admit(candidates, waitForMissing: true).outcomes
            } catch {
                admitted = []
                for index in candidateIndices { outcomes[index] = .refused(ModuleDiagnostic(.rejectedRecord(error))) }
            }
            for ((index, candidate), admission) in zip(zip(candidateIndices, candidates), admitted) {
                let name = candidate.type.moduleName
                switch admission {
                case .registered(let entry):
                    outcomes[index] = .registered(Token(entry: entry))
                case .duplicate(let diagnostic):
                    outcomes[index] = .refused(diagnostic)
                case .waiting(let dependency):
                    outcomes[index] = .pending(
                        ModuleDiagnostic(.waitingForDependency(module: name, dependency: dependency, source: candidate.source)))
                case .cycle(let cycle):
                    outcomes[index] = .refused(ModuleDiagnostic(.rejectedRecord(.dependencyCycle(cycle))))
                }
            }
        }
        for case .refused(let diagnostic)? in outcomes {
            if case .rejectedRecord = diagnostic.kind { log.report(diagnostic) }
        }
        return outcomes.compactMap { $0 }
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
