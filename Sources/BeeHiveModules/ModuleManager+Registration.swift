import BeeHiveRegistry
import Foundation

extension ModuleManager {
    /// A module to register, before it is made.
    struct Candidate {
        let type: any Module.Type
        let instance: (any Module)?
        let level: ModuleLevel
        let priority: Int
        let isAsync: Bool
        let source: ModuleSource
        /// Named by the annotation (`depends=`), besides those the type declares.
        var annotatedDependencies: [String] = []
    }

    /// The code's dependencies, then the annotation's that the code does not name.
    private static func merged(_ code: [String], _ annotated: [String]) -> [String] {
        code + annotated.filter { !code.contains($0) }
    }

    /// Registers a module made with `M()` (BeeHive's `registerDynamicModule:`). After `start()`, it is set
    /// up, initialized and splashed before this returns (asynchronous init: later, see `waitForLaunch()`).
    /// A module already registered is reported in `diagnostics` and not registered again.
    /// - Throws: `ModuleError.dependencyCycle`; after start, `.missingDependency` and `.hookFailed` under
    ///   `.failFast`.
    public func register<M: Module>(
        _ type: M.Type, level: ModuleLevel = .normal, priority: Int = 0, isAsync: Bool = false
    ) throws(ModuleError) {
        try register(
            [Candidate(type: type, instance: nil, level: level, priority: priority, isAsync: isAsync, source: .code)])
    }

    /// Registers an instance you made; see `register(_:level:priority:isAsync:)`.
    public func register(
        _ module: some Module, level: ModuleLevel = .normal, priority: Int = 0, isAsync: Bool = false
    ) throws(ModuleError) {
        try register(
            [Candidate(type: type(of: module), instance: module, level: level, priority: priority, isAsync: isAsync, source: .code)])
    }

    /// Registers the modules a configuration file lists: BeeHive's property list layout, or the same keys in
    /// JSON. Nothing is registered if any entry is wrong.
    @discardableResult
    public func registerModules(fromConfigurationFileAt path: String) throws(ModuleError) -> [ModuleDiagnostic] {
        let data: Data
        do {
            data = try RegularFile.contents(atPath: path)
        } catch {
            throw .invalidConfigurationFile(path: path, reason: "cannot be read: \(error.reason)")
        }
        return try registerModules(fromConfiguration: data, path: path)
    }

    /// Registers the modules listed in configuration data; `path` names it in errors and sources.
    /// - Returns: Warnings about the file (unknown top-level keys), also logged and kept in `diagnostics`.
    @discardableResult
    public func registerModules(fromConfiguration data: Data, path: String) throws(ModuleError) -> [ModuleDiagnostic] {
        let contents = try ModuleConfigurationFile.contents(of: data, path: path)
        var candidates: [Candidate] = []
        for entry in contents.entries {
            let source = ModuleSource.configurationFile(path: path, entry: entry.index)
            candidates.append(
                Candidate(
                    type: try Self.resolve(entry.typeName, source: source, origin: nil), instance: nil,
                    level: entry.level, priority: entry.priority, isAsync: entry.isAsync, source: source))
        }
        try register(candidates)
        let warnings = contents.unknownKeys.map { ModuleDiagnostic(.unknownConfigurationKey(path: path, key: $0)) }
        for warning in warnings { log.report(warning) }
        return warnings
    }

    /// Takes in what the annotation registry found: registers the module records of `update.added` and
    /// unregisters the modules registered from the records of `update.removed` (tearDown, then unmount).
    ///
    /// A record whose type cannot be used is reported and skipped; the other records are registered.
    /// - Returns: The diagnostics of this update: rejected records and duplicates.
    /// - Throws: `ModuleError.dependencyCycle` or `.missingDependency` (nothing added is registered then),
    ///   `.hookFailed` under `.failFast`.
    @discardableResult
    public func apply(_ update: RegistryUpdate) throws(ModuleError) -> [ModuleDiagnostic] {
        let removedOrigins = Set(update.removed.compactMap { record -> RecordOrigin? in
            if case .module = record.payload { return record.origin }
            return nil
        })
        if !removedOrigins.isEmpty {
            let leaving = state.withLock { state in
                Self.snapshot(of: &state).entries.filter { entry in
                    if case .annotation(let origin) = entry.descriptor.source { return removedOrigins.contains(origin) }
                    return false
                }
            }
            for entry in leaving.reversed() { try unregister(entry) }
        }

        var diagnostics: [ModuleDiagnostic] = []
        var candidates: [Candidate] = []
        for record in update.added {
            guard case .module(let annotation) = record.payload else { continue }
            let source = ModuleSource.annotation(record.origin)
            do throws(ModuleError) {
                let type = try Self.resolve(annotation.typeName, source: source, origin: record.origin)
                candidates.append(
                    Candidate(
                        type: type, instance: nil, level: annotation.level, priority: annotation.priority,
                        isAsync: annotation.isAsync, source: source, annotatedDependencies: annotation.dependencies))
            } catch {
                let diagnostic = ModuleDiagnostic(.rejectedRecord(error))
                log.report(diagnostic)
                diagnostics.append(diagnostic)
            }
        }
        diagnostics += try register(candidates)
        return diagnostics
    }

    /// Unregisters a module: tearDown and unmount if it was set up, and its custom event handlers go.
    /// - Throws: `.notRegistered`, or `.hookFailed` under `.failFast`.
    public func unregister(_ type: any Module.Type) throws(ModuleError) {
        guard let entry = state.withLock({ $0.entries[ObjectIdentifier(type)] }) else {
            throw .notRegistered(module: type.moduleName)
        }
        try unregister(entry)
    }

    /// Unregisters the module registered under a fully qualified type name.
    public func unregister(named name: String) throws(ModuleError) {
        guard let entry = state.withLock({ $0.entriesByName[name] }) else { throw .notRegistered(module: name) }
        try unregister(entry)
    }

    private func unregister(_ entry: ModuleEntry) throws(ModuleError) {
        let dependents = state.withLock { state -> [String]? in
            guard state.entries[entry.typeID] === entry else { return nil }
            state.entries[entry.typeID] = nil
            state.entriesByName[entry.name] = nil
            state.handlers[ObjectIdentifier(entry)] = nil
            state.snapshot = nil
            return state.entries.values.filter { $0.descriptor.dependencies.contains(entry.name) }.map(\.name).sorted()
        }
        guard let dependents else { return }
        if !dependents.isEmpty {
            log.report(ModuleDiagnostic(.dependencyRemoved(module: entry.name, dependents: dependents)))
        }
        if let failure = retire(entry, unmount: true), failurePolicy == .failFast {
            throw .hookFailed(failure)
        }
    }

    /// Registers a group of modules at once: all of them, or none when the group would break the order.
    @discardableResult
    func register(_ candidates: [Candidate]) throws(ModuleError) -> [ModuleDiagnostic] {
        var duplicates: [ModuleDiagnostic] = []
        var fresh: [Candidate] = []
        state.withLock { state in
            var seen: [ObjectIdentifier: ModuleSource] = [:]
            for candidate in candidates {
                let id = ObjectIdentifier(candidate.type)
                if let first = state.entries[id]?.descriptor.source ?? seen[id] {
                    duplicates.append(
                        ModuleDiagnostic(
                            .duplicateRegistration(module: candidate.type.moduleName, first: first, ignored: candidate.source)))
                } else {
                    seen[id] = candidate.source
                    fresh.append(candidate)
                }
            }
        }
        for duplicate in duplicates { log.report(duplicate) }
        guard !fresh.isEmpty else { return duplicates }

        // Made outside the lock: a module's init may call back into the manager.
        let entries = fresh.map { candidate in
            ModuleEntry(
                module: candidate.instance ?? candidate.type.init(),
                descriptor: ModuleDescriptor(
                    name: candidate.type.moduleName, level: candidate.level, priority: candidate.priority,
                    isAsync: candidate.isAsync,
                    dependencies: Self.merged(candidate.type.dependencies.map(\.name), candidate.annotatedDependencies),
                    source: candidate.source))
        }

        let committed = try state.withLock { state throws(ModuleError) -> (launch: [ModuleEntry], late: [ModuleDiagnostic]) in
            var late: [ModuleDiagnostic] = []
            var added: [ModuleEntry] = []
            for entry in entries {
                if let existing = state.entries[entry.typeID] {
                    late.append(
                        ModuleDiagnostic(
                            .duplicateRegistration(module: entry.name, first: existing.descriptor.source, ignored: entry.descriptor.source)))
                } else {
                    added.append(entry)
                }
            }
            if state.phase == .running {
                let addedNames = Set(added.map(\.name))
                for entry in added {
                    let missing = entry.descriptor.dependencies.first {
                        state.entriesByName[$0] == nil && !addedNames.contains($0)
                    }
                    if let missing { throw .missingDependency(module: entry.name, dependency: missing) }
                }
            }
            // Only a new module with dependencies can close a cycle.
            if added.contains(where: { !$0.descriptor.dependencies.isEmpty }) {
                let all = state.entries.values.map(\.descriptor) + added.map(\.descriptor)
                if let cycle = ModuleOrder.arrange(all).cycle { throw .dependencyCycle(cycle) }
            }
            for entry in added {
                state.entries[entry.typeID] = entry
                state.entriesByName[entry.name] = entry
            }
            state.snapshot = nil
            guard state.phase == .running, !added.isEmpty else { return ([], late) }
            state.outstandingLaunches += 1
            let addedIDs = Set(added.map { ObjectIdentifier($0) })
            let launch = Self.snapshot(of: &state).entries.filter { addedIDs.contains(ObjectIdentifier($0)) }
            return (launch, late)
        }
        for duplicate in committed.late { log.report(duplicate) }
        if !committed.launch.isEmpty {
            try launch(committed.launch)
        }
        return duplicates + committed.late
    }

    static func resolve(_ name: String, source: ModuleSource, origin: RecordOrigin?) throws(ModuleError) -> any Module.Type {
        switch TypeResolver.resolve(name, as: (any Module.Type).self, origin: origin) {
        case .success(let type):
            return type
        case .failure(let diagnostic):
            if case .nonConformingType = diagnostic.kind { throw .notAModule(name: name, source: source) }
            throw .unresolvedModule(name: name, source: source)
        }
    }
}
