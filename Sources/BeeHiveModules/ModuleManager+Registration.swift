@_spi(BeeHiveInternals) import BeeHiveRegistry
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

        /// The code's dependencies, then the annotation's that the code does not name.
        var dependencyNames: [String] {
            let code = type.dependencies.map(\.name)
            return code + annotatedDependencies.filter { !code.contains($0) }
        }
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
    /// `Hive` does this for you.
    ///
    /// A record whose type cannot be used, or that would close a dependency cycle, is reported and skipped.
    /// After `start()`, a module whose dependency is not registered waits, and is registered by a later
    /// `apply` that brings the dependency.
    /// - Returns: The diagnostics of this update: rejected and waiting records, duplicates.
    @discardableResult
    public func apply(_ update: RegistryUpdate) -> [ModuleDiagnostic] {
        ledger.apply(update, to: self)
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

    func unregister(_ entry: ModuleEntry) throws(ModuleError) {
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
        let admitted = try admit(candidates, waitForMissing: false)
        if let failure = admitted.launchFailure { throw failure }
        return admitted.outcomes.compactMap { outcome in
            if case .duplicate(let diagnostic) = outcome { return diagnostic }
            return nil
        }
    }

    /// What became of one candidate of a group.
    enum Admission {
        case registered(ModuleEntry)
        case duplicate(ModuleDiagnostic)
        /// After start, a dependency that is not registered (nor in the group).
        case waiting(dependency: String)
        case cycle([String])
    }

    /// Registers candidates together and launches them if the modules have started.
    ///
    /// With `waitForMissing`, candidates whose dependency is missing, or whose modules close a cycle, are left
    /// out and the others go ahead; without, the whole group is refused with the error.
    func admit(
        _ candidates: [Candidate], waitForMissing: Bool
    ) throws(ModuleError) -> (outcomes: [Admission], launchFailure: ModuleError?) {
        var outcomes = [Admission?](repeating: nil, count: candidates.count)
        var fresh: [Int] = []
        // Read before the lock: a module's `moduleName` and `dependencies` are its own code, which may call back
        // into the manager.
        let names = candidates.map { $0.type.moduleName }
        let dependencies = candidates.map(\.dependencyNames)
        state.withLock { state in
            var seen: [ObjectIdentifier: ModuleSource] = [:]
            for (index, candidate) in candidates.enumerated() {
                let id = ObjectIdentifier(candidate.type)
                if let first = state.entries[id]?.descriptor.source ?? seen[id] {
                    outcomes[index] = .duplicate(
                        ModuleDiagnostic(
                            .duplicateRegistration(module: names[index], first: first, ignored: candidate.source)))
                } else {
                    seen[id] = candidate.source
                    fresh.append(index)
                }
            }
            // Dependencies are static, so modules that must wait are found before any is made.
            if waitForMissing && state.phase == .running {
                let missing = Self.missingDependencies(
                    names: fresh.map { names[$0] }, dependencies: fresh.map { dependencies[$0] }, in: state)
                for (index, dependency) in missing {
                    outcomes[fresh[index]] = .waiting(dependency: dependency)
                }
                fresh.removeAll { outcomes[$0] != nil }
            }
        }
        for case .duplicate(let diagnostic)? in outcomes { log.report(diagnostic) }

        // Made outside the lock: a module's init may call back into the manager.
        var entries = fresh.map { index in
            let candidate = candidates[index]
            return (
                index,
                ModuleEntry(
                    module: candidate.instance ?? candidate.type.init(),
                    descriptor: ModuleDescriptor(
                        name: names[index], level: candidate.level, priority: candidate.priority,
                        isAsync: candidate.isAsync, dependencies: dependencies[index],
                        source: candidate.source))
            )
        }

        var late: [ModuleDiagnostic] = []
        let launch = try state.withLock { state throws(ModuleError) -> [ModuleEntry] in
            entries.removeAll { index, entry in
                guard let existing = state.entries[entry.typeID] else { return false }
                let diagnostic = ModuleDiagnostic(
                    .duplicateRegistration(module: entry.name, first: existing.descriptor.source, ignored: entry.descriptor.source))
                late.append(diagnostic)
                outcomes[index] = .duplicate(diagnostic)
                return true
            }
            if state.phase == .running {
                while true {
                    let addedNames = Set(entries.map(\.1.name))
                    let missing = entries.compactMap { index, entry in
                        entry.descriptor.dependencies.first { state.entriesByName[$0] == nil && !addedNames.contains($0) }
                            .map { (index, entry.name, $0) }
                    }
                    guard let first = missing.first else { break }
                    guard waitForMissing else { throw .missingDependency(module: first.1, dependency: first.2) }
                    for (index, _, dependency) in missing { outcomes[index] = .waiting(dependency: dependency) }
                    entries.removeAll { outcomes[$0.0] != nil }
                }
            }
            // Only a new module with dependencies can close a cycle.
            if entries.contains(where: { !$0.1.descriptor.dependencies.isEmpty }) {
                let all = state.entries.values.map(\.descriptor) + entries.map(\.1.descriptor)
                if let cycle = ModuleOrder.arrange(all).cycle {
                    guard waitForMissing else { throw .dependencyCycle(cycle) }
                    let inCycle = Set(cycle)
                    for (index, entry) in entries where inCycle.contains(entry.name) { outcomes[index] = .cycle(cycle) }
                    entries.removeAll { outcomes[$0.0] != nil }
                    let rest = state.entries.values.map(\.descriptor) + entries.map(\.1.descriptor)
                    if ModuleOrder.arrange(rest).cycle != nil {
                        for (index, _) in entries { outcomes[index] = .cycle(cycle) }
                        entries.removeAll()
                    }
                }
            }
            for (index, entry) in entries {
                state.entries[entry.typeID] = entry
                state.entriesByName[entry.name] = entry
                outcomes[index] = .registered(entry)
            }
            state.snapshot = nil
            guard state.phase == .running, !entries.isEmpty else { return [] }
            state.outstandingLaunches += 1
            let addedIDs = Set(entries.map { ObjectIdentifier($0.1) })
            return Self.snapshot(of: &state).entries.filter { addedIDs.contains(ObjectIdentifier($0)) }
        }
        for diagnostic in late { log.report(diagnostic) }
        var launchFailure: ModuleError?
        if !launch.isEmpty {
            do {
                try self.launch(launch)
            } catch {
                launchFailure = error
            }
        }
        return (outcomes.compactMap { $0 }, launchFailure)
    }

    /// The candidates (by index; each with its name and dependencies) that depend on a module neither registered
    /// nor among the candidates that can go ahead, with the first such dependency.
    private static func missingDependencies(
        names: [String], dependencies: [[String]], in state: State
    ) -> [(Int, String)] {
        var available = Set(state.entriesByName.keys).union(names)
        var missing: [Int: String] = [:]
        var changed = true
        while changed {
            changed = false
            for index in names.indices where missing[index] == nil {
                if let dependency = dependencies[index].first(where: { !available.contains($0) }) {
                    missing[index] = dependency
                    available.remove(names[index])
                    changed = true
                }
            }
        }
        return missing.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
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
