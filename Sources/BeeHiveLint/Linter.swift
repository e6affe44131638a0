@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Checks the BeeHive annotations of built executables and shared libraries, offline, before they run.
///
/// The files are linted as a set: a record in one file may name a type that another file defines (an
/// executable and the libraries it links). For each file it reports what discovery would report (malformed
/// records, unknown versions, records in the wrong section, a missing BeeHive note), and for each record
/// whether the types it names exist in the set and can be resolved by the runtime, and whether another record
/// already declares the same module, service, route or target.
public enum Linter {
    ///
    /// With `inputs` (the relocatable objects and static archives given to the linker), it also reports each
    /// record of an input that did not reach any of `files`, naming the input and the likely cause.
    public static func lint(files: [String], inputs: [String] = []) -> LintReport {
        var paths: [String] = []
        for path in files where !paths.contains(path) { paths.append(path) }

        var inventory = TypeInventory()
        var objects: [(path: String, annotations: ObjectAnnotations, binaryProblems: [LintFinding.Kind])] = []
        for path in paths {
            let annotations = SectionReader.readFile(atPath: path)
            var binaryProblems: [LintFinding.Kind] = []
            if !annotations.diagnostics.contains(where: { $0.kind == .notELF || $0.isUnreadableObject }) {
                do {
                    binaryProblems = try inventory.add(ELFFile(path: path)).map {
                        .damagedTypeMetadata(section: $0.section, reason: $0.reason)
                    }
                } catch {
                    binaryProblems = [.unreadableBinary(reason: error.reason)]
                }
            }
            objects.append((path, annotations, binaryProblems))
        }

        var findings: [LintFinding] = []
        var firstDeclaration: [RecordIdentity: String] = [:]
        for (path, annotations, binaryProblems) in objects {
            findings += annotations.diagnostics.map {
                LintFinding(.registry($0.kind), objectPath: $0.objectPath ?? path, section: $0.section, record: $0.record)
            }
            findings += binaryProblems.map { LintFinding($0, objectPath: path) }
            if !annotations.records.isEmpty && !annotations.isAnnotated {
                findings.append(LintFinding(.missingNote, objectPath: path))
            }
            for record in annotations.records {
                for problem in problems(of: record, in: inventory) {
                    findings.append(LintFinding(problem, objectPath: path, section: record.origin.section, record: record.text))
                }
                if let first = firstDeclaration[record.identity] {
                    findings.append(
                        LintFinding(
                            .duplicate(record.identity, firstObject: first), objectPath: path, section: record.origin.section,
                            record: record.text))
                } else {
                    firstDeclaration[record.identity] = path
                }
            }
        }
        findings += onDemandProblems(objects.map { ($0.path, $0.annotations.records) })
        findings += linkLosses(inputs: inputs, linked: objects.flatMap(\.annotations.records))
        let linkages = paths.map { path -> ObjectLinkage? in
            guard case .success(let linkage) = ObjectLinkage.read(atPath: path) else { return nil }
            return linkage
        }
        findings += interfaceMismatches(Array(zip(paths, linkages)))
        findings += copiedModules(objects.indices.map { (objects[$0].path, objects[$0].annotations.isAnnotated, linkages[$0]) })
        findings += protocolMismatches(Array(zip(paths, linkages)))
        return LintReport(files: paths, recordCount: objects.reduce(0) { $0 + $1.annotations.records.count }, findings: findings)
    }

    /// Files that link libBeeHive.so and were built against another BeeHive interface than the first such file
    /// of the set (an executable before its plugins, as they are usually given).
    private static func interfaceMismatches(_ files: [(path: String, linkage: ObjectLinkage?)]) -> [LintFinding] {
        var reference: (path: String, interface: UInt64)?
        var findings: [LintFinding] = []
        for (path, linkage) in files {
            guard let linkage, linkage.linksBeeHive, let interface = linkage.interfaceFingerprint else { continue }
            if let reference, reference.interface != interface {
                findings.append(
                    LintFinding(.otherBeeHiveInterface(interface, file: reference.path, fileInterface: reference.interface), objectPath: path))
            } else if reference == nil {
                reference = (path, interface)
            }
        }
        return findings
    }

    /// Annotated files (plugins, as BeeHive loads them) that carry their own copy of a Swift module another file
    /// of the set exports: in one process, the plugin's copy of the module's types is not the host's.
    /// Unannotated libraries are not reported: they are the host's, which it links as they are.
    /// Of two annotated files, the later is reported.
    private static func copiedModules(
        _ files: [(path: String, isAnnotated: Bool, linkage: ObjectLinkage?)]
    ) -> [LintFinding] {
        var findings: [LintFinding] = []
        for (index, file) in files.enumerated() where file.isAnnotated {
            let modules = file.linkage?.swiftModules ?? [:]
            for (otherIndex, other) in files.enumerated() where otherIndex < index || (otherIndex > index && !other.isAnnotated) {
                let shared = modules.keys.filter { other.linkage?.swiftModules[$0] != nil }.sorted()
                guard !shared.isEmpty else { continue }
                findings.append(LintFinding(.copiedSwiftModules(shared, file: other.path), objectPath: file.path))
                break
            }
        }
        return findings
    }

    /// Files whose conformances were compiled against another number of requirements of a protocol than the
    /// file of the set that defines it has: the check a host makes before loading a plugin, made offline.
    private static func protocolMismatches(_ files: [(path: String, linkage: ObjectLinkage?)]) -> [LintFinding] {
        var definitions: [String: (requirements: Int, library: String)] = [:]
        for (path, linkage) in files {
            for (symbol, requirements) in linkage?.exportedProtocols ?? [:] where definitions[symbol] == nil {
                definitions[symbol] = (requirements, path)
            }
        }
        guard !definitions.isEmpty else { return [] }
        return files.compactMap { path, linkage in
            guard let linkage,
                  let mismatch = ProtocolRequirements.mismatch(in: linkage, definition: { symbol in
                      definitions[symbol].map { definition in (definition.requirements, { definition.library }) }
                  })
            else { return nil }
            return LintFinding(
                .otherProtocolRequirements(
                    mismatch.protocolName, requirements: mismatch.plugin, file: mismatch.library, fileRequirements: mismatch.host),
                objectPath: path)
        }
    }

    /// On-demand modules that cannot work as declared: beside a launch module in one file (the file loads at
    /// launch anyway), or needed by a launch module while their file loads on first use only.
    private static func onDemandProblems(_ files: [(path: String, records: AnnotationRecords)]) -> [LintFinding] {
        let modules = files.map { file in
            (file.path, file.records.compactMap { record -> (AnnotationRecord, ModuleAnnotation)? in
                if case .module(let module) = record.payload { (record, module) } else { nil }
            })
        }
        var deferredModules: [String: String] = [:]
        for (path, declared) in modules where !declared.isEmpty && declared.allSatisfy(\.1.isOnDemand) {
            for (_, module) in declared where deferredModules[module.typeName] == nil { deferredModules[module.typeName] = path }
        }
        var findings: [LintFinding] = []
        for (path, declared) in modules {
            let launch = declared.first { !$0.1.isOnDemand }
            for (record, module) in declared {
                if module.isOnDemand, let launch {
                    findings.append(
                        LintFinding(
                            .onDemandBesideLaunchModule(launchModule: launch.1.typeName), objectPath: path,
                            section: record.origin.section, record: record.text))
                }
                guard !module.isOnDemand else { continue }
                for dependency in module.dependencies {
                    guard let file = deferredModules[dependency] else { continue }
                    findings.append(
                        LintFinding(
                            .launchModuleNeedsOnDemandModule(dependency: dependency, file: file), objectPath: path,
                            section: record.origin.section, record: record.text))
                }
            }
        }
        return findings
    }

    /// The records of the link inputs that are in no linked file. Records are matched by section and text, as
    /// many times as they occur.
    private static func linkLosses(inputs: [String], linked: [AnnotationRecord]) -> [LintFinding] {
        guard !inputs.isEmpty else { return [] }
        var available: [String: Int] = [:]
        for record in linked { available[record.origin.section + "\u{0}" + record.text, default: 0] += 1 }
        var findings: [LintFinding] = []
        var seenInputs = Set<String>()
        for path in inputs where seenInputs.insert(path).inserted {
            let input = LinkInput(path: path)
            findings += input.problems
            var lost: [LinkInput.Record] = []
            var keptInputs = Set<String>()
            for record in input.records {
                let key = record.section + "\u{0}" + record.text
                if let count = available[key], count > 0 {
                    available[key] = count - 1
                    keptInputs.insert(record.input)
                } else {
                    lost.append(record)
                }
            }
            for record in lost {
                let cause: LintFinding.LinkLoss =
                    record.isArchiveMember && !keptInputs.contains(record.input)
                    ? .memberNotPulled : .sectionCollected(retained: record.isRetained)
                findings.append(
                    LintFinding(.lostAtLink(input: record.input, cause: cause), objectPath: record.input, section: record.section, record: record.text))
            }
        }
        return findings
    }

    private static func problems(of record: AnnotationRecord, in inventory: TypeInventory) -> [LintFinding.Kind] {
        switch record.payload {
        case .module(let module):
            return ([problem(with: module.typeName, role: .module, in: inventory)]
                + module.dependencies.map { problem(with: $0, role: .moduleDependency, in: inventory) }).compactMap { $0 }
        case .service(let service):
            return [
                problem(with: service.protocolName, role: .serviceProtocol, in: inventory),
                problem(with: service.typeName, role: .serviceImplementation, in: inventory),
            ].compactMap { $0 }
        case .route(let route):
            return [problem(with: route.typeName, role: .routeHandler, in: inventory)].compactMap { $0 }
        case .target(let target):
            return [problem(with: target.typeName, role: .target, in: inventory)].compactMap { $0 }
        }
    }

    /// Whether `name` names a type (or, for a service protocol, a protocol) the runtime will find; for a module
    /// dependency, whether it names a type at all.
    private static func problem(with name: String, role: LintFinding.Role, in inventory: TypeInventory) -> LintFinding.Kind? {
        let isProtocol = role == .serviceProtocol
        guard let (reference, isDotted) = reference(to: name) else { return .unreadableTypeName(role: role, name: name) }
        let definitions = inventory.definitions(namedBy: reference, protocols: isProtocol)
        guard let definition = definitions.first else {
            let suggestion = inventory.suggestion(for: reference, protocols: isProtocol)
            return .typeNotFound(
                role: role, name: name,
                suggestion: suggestion.map { isDotted ? $0.dottedName : $0.mangledName ?? $0.dottedName })
        }
        // A dependency is matched against the registered modules' names (`Module.Type` with every enclosing
        // type), never resolved from its name, so a nested or generic module type is a valid dependency.
        guard role != .moduleDependency else { return nil }
        if !isProtocol, isDotted,
            !definitions.contains(where: { $0.path.components.count == 1 && $0.path.kind == .class })
        {
            let kind = (definition.path.components.count > 1 ? "nested " : "") + definition.path.kind.rawValue
            return .dottedNameUnresolvable(role: role, name: name, kind: kind, mangledName: definition.path.mangledName)
        }
        if definitions.allSatisfy(\.isGeneric) { return .genericType(role: role, name: name) }
        return nil
    }

    /// `Module.Type` (any kind at each level) or a mangled name such as `4Shop5OuterC5InnerV`.
    private static func reference(to name: String) -> (SwiftTypePath, isDotted: Bool)? {
        guard name.contains(".") else { return SwiftMangledName.type(name).map { ($0, false) } }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        let components = parts.dropFirst().map { SwiftTypePath.Component(name: String($0), kind: .anyNominal) }
        return (SwiftTypePath(module: String(parts[0]), components: components), true)
    }
}

extension RegistryDiagnostic {
    fileprivate var isUnreadableObject: Bool {
        switch kind {
        case .unreadableObject, .notRegularFile, .malformedObject: true
        default: false
        }
    }
}
