@_spi(BeeHiveInternals) import BeeHiveRegistry

/// One thing wrong with the annotations of the linted binaries, with the file, section and record involved.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// What a type name in a record is used for; named in messages.
    public enum Role: String, Sendable, Hashable {
        case module = "module type"
        case moduleDependency = "module dependency"
        case serviceProtocol = "service protocol"
        case serviceImplementation = "service implementation"
        case routeHandler = "route handler"
        case target = "target type"
    }

    /// Why a record of a link input is missing from the linked files.
    public enum LinkLoss: Sendable, Hashable {
        /// No record of its archive member reached the output: the linker never pulled the member, because
        /// nothing referenced a symbol it defines.
        case memberNotPulled
        /// Its object was linked (or other records of it were kept) but its section was dropped by
        /// --gc-sections; `retained` says whether the input section carried SHF_GNU_RETAIN.
        case sectionCollected(retained: Bool)
    }

    public enum Kind: Sendable, Hashable {
        /// What reading the file's annotation sections found: malformed records, unknown versions, oversized
        /// or non-UTF-8 records, records in the wrong section, unreadable files.
        case registry(RegistryDiagnostic.Kind)
        /// The file cannot be read as ELF for its symbols and type metadata.
        case unreadableBinary(reason: String)
        /// A Swift type metadata section's header cannot be trusted (`reason` says why), so the types it lists
        /// are not known to lint; records naming them may be reported as not found.
        case damagedTypeMetadata(section: String, reason: String)
        /// The file has annotation records but not the BeeHive note, so discovery skips it at run time.
        case missingNote
        /// No linted file defines the type; `suggestion` is the closest name that one does.
        case typeNotFound(role: Role, name: String, suggestion: String?)
        /// The type exists, but `_typeByName` does not resolve the dotted form for it; `mangledName` does.
        case dottedNameUnresolvable(role: Role, name: String, kind: String, mangledName: String?)
        /// Generic types cannot be created from their name.
        case genericType(role: Role, name: String)
        /// The name is neither `Module.Type` nor a mangled type name this linter reads.
        case unreadableTypeName(role: Role, name: String)
        /// A record of a file given to the linker (`input`, `lib.a(member.o)` for an archive member) is not in
        /// any linked file, so discovery will never see it.
        case lostAtLink(input: String, cause: LinkLoss)
        /// Another record declares the same thing; `firstObject` holds the first one.
        case duplicate(RecordIdentity, firstObject: String)
        /// An on-demand module in a file that also carries `launchModule`, which is not on-demand: a plugin
        /// folder loads the file at launch, so `ondemand=1` has no effect.
        case onDemandBesideLaunchModule(launchModule: String)
        /// A module that starts at launch depends on `dependency`, an on-demand module of `file`, whose modules
        /// are all on-demand: it waits, not set up, until something of that plugin is first used.
        case launchModuleNeedsOnDemandModule(dependency: String, file: String)
        /// The file links libBeeHive.so and was built against BeeHive interface `interface`, and `file`, linted
        /// with it, against `fileInterface`: a host built with one refuses plugins built with the other.
        case otherBeeHiveInterface(UInt64, file: String, fileInterface: UInt64)
        /// The file is annotated and carries its own copy of the Swift modules `modules`, which `file`, linted
        /// with it, exports too: a host that has them from `file` refuses it.
        case copiedSwiftModules([String], file: String)
        /// The file conforms to `protocol` as compiled with `requirements` requirements, and `file`, which
        /// defines the protocol, has `fileRequirements`: a plugin built against another version of a library
        /// of shared protocols, which a host with `file` refuses.
        case otherProtocolRequirements(String, requirements: Int, file: String, fileRequirements: Int)
    }

    public let kind: Kind
    public let objectPath: String
    public let section: String?
    /// The record's text.
    public let record: String?

    public init(_ kind: Kind, objectPath: String, section: String? = nil, record: String? = nil) {
        self.kind = kind
        self.objectPath = objectPath
        self.section = section
        self.record = record
    }

    public var message: String {
        switch kind {
        case .registry(let kind):
            RegistryDiagnostic(kind).message
        case .unreadableBinary(let reason):
            "cannot read its symbols and Swift type metadata: \(reason)"
        case .damagedTypeMetadata(let section, let reason):
            "damaged Swift type metadata section '\(section)': \(reason); the types it lists were not read (rebuild the file, or check how it was post-processed)"
        case .missingNote:
            "has annotation records but no BeeHive note (.note.beehive), so discovery skips it at run time: annotate with beehive.h or the BeeHiveAnnotations macros, which add the note"
        case .typeNotFound(let role, let name, let suggestion):
            "\(role.rawValue) '\(name)' is not defined in any linted file"
                + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                + "; if a library defines it, lint that library too"
        case .dottedNameUnresolvable(let role, let name, let kind, let mangledName):
            "\(role.rawValue) '\(name)' is a \(kind); the runtime resolves 'Module.Type' for top-level classes only"
                + (mangledName.map { ": write its mangled name '\($0)' (the Swift macros do this)" } ?? "")
        case .genericType(let role, let name):
            "\(role.rawValue) '\(name)' is generic; the runtime cannot create it from its name: annotate a non-generic type"
        case .unreadableTypeName(let role, let name):
            "\(role.rawValue) '\(name)' is neither 'Module.Type' nor a mangled type name such as '4Shop4CartV'"
        case .duplicate(let key, let first):
            "\(key) is declared again; first declared in \(first)"
        case .onDemandBesideLaunchModule(let launchModule):
            "module is on-demand, but its file also carries module '\(launchModule)', which is not, so a plugin folder loads the file at launch: declare every module of the file on-demand, or none"
        case .launchModuleNeedsOnDemandModule(let dependency, let file):
            "module starts at launch but depends on '\(dependency)', an on-demand module of \(file), which loads on first use: it waits until then; declare it on-demand too, or drop ondemand from '\(dependency)'"
        case .otherBeeHiveInterface(let interface, let file, let fileInterface):
            "was built against BeeHive interface \(PluginIncompatibility.hex(interface)), and \(file) against \(PluginIncompatibility.hex(fileInterface)): "
                + "a host built with one refuses plugins built with the other; rebuild both against the same BeeHive"
        case .copiedSwiftModules(let modules, let file):
            "carries its own copy of the Swift module\(modules.count == 1 ? "" : "s") \(modules.joined(separator: ", ")), which \(file) "
                + "exports too: a host that has \(modules.count == 1 ? "it" : "them") from \(file) refuses this file; build it against "
                + "\(file)'s product only, not against the package \(modules.count == 1 ? "it comes" : "they come") from"
        case .otherProtocolRequirements(let name, let requirements, let file, let fileRequirements):
            "conforms to \(name) as compiled with \(requirements) requirement\(requirements == 1 ? "" : "s"), and \(file), which defines it, "
                + "has \(fileRequirements): a host with \(file) refuses this file; rebuild it against that version of \(file)"
        case .lostAtLink(let input, .memberNotPulled):
            "record of \(input) is not in the linked file: the linker never pulled this archive member (nothing "
                + "references a symbol it defines); link the archive with -Wl,--whole-archive or reference a symbol of the member"
        case .lostAtLink(let input, .sectionCollected(let retained)):
            "record of \(input) is not in the linked file: --gc-sections collected its section"
                + (retained
                    ? " even though it is marked retain (a linker without SHF_GNU_RETAIN support?); use lld 13+, bfd 2.36+ or gold, or drop --gc-sections"
                    : ", which was built without 'retain': annotate with beehive.h or the BeeHiveAnnotations macros (which mark it retain), or add -Wl,--undefined or -Wl,-z,nostart-stop-gc")
        }
    }

    public var description: String {
        var place = objectPath
        if let section { place += " [\(section)]" }
        if let record { return "\(place): error: \(message): \"\(record)\"" }
        return "\(place): error: \(message)"
    }
}
