@_spi(BeeHiveInternals) import BeeHiveRegistry

/// What `beehive inspect` reports for a set of files: their records, with parsed fields, and what is wrong with
/// them, as a table or as the JSON document described in docs/registry.md.
///
/// Every documented key is always written: a value that is absent is JSON `null`, never a missing key, so
/// consumers can rely on the shape.
public struct InspectionReport: Encodable, Sendable {
    public struct File: Encodable, Sendable {
        public let file: String
        /// False when the file could not be opened or is not ELF.
        public let readable: Bool
        /// Whether the file carries the BeeHive note that lets discovery find it at run time.
        public let annotated: Bool
        public let buildID: String?
        /// The BeeHive interface fingerprint its note carries, in hex; nil without one.
        public let interface: String?
        /// Why a host built with this tool's BeeHive would refuse to load it; nil when it would load.
        public let incompatibility: String?
        /// The Swift modules whose types or protocols the file exports, sorted: the modules it carries a copy
        /// of, which a host refuses when one of its libraries exports them too.
        public let swiftModules: [String]
        /// The Swift toolchain that built the file, as its `.comment` names it; nil for a file without Swift code.
        public let swiftToolchain: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(readable, forKey: .readable)
            try container.encode(annotated, forKey: .annotated)
            try container.encode(buildID, forKey: .buildID)
            try container.encode(interface, forKey: .interface)
            try container.encode(incompatibility, forKey: .incompatibility)
            try container.encode(swiftModules, forKey: .swiftModules)
            try container.encode(swiftToolchain, forKey: .swiftToolchain)
        }

        private enum CodingKeys: String, CodingKey {
            case file, readable, annotated, buildID, interface, incompatibility, swiftModules, swiftToolchain
        }
    }

    public struct Record: Encodable, Sendable {
        public let file: String
        public let section: String
        public let offset: Int
        public let kind: String
        /// The record exactly as stored.
        public let record: String
        /// The parsed fields, defaults filled in.
        public let fields: [String: FieldValue]
    }

    public struct Diagnostic: Encodable, Sendable {
        public let file: String
        public let section: String?
        public let record: String?
        public let kind: String
        public let severity: String
        public let message: String

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(section, forKey: .section)
            try container.encode(record, forKey: .record)
            try container.encode(kind, forKey: .kind)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
        }

        private enum CodingKeys: String, CodingKey { case file, section, record, kind, severity, message }
    }

    /// A JSON scalar in a record's parsed fields.
    public enum FieldValue: Encodable, Equatable, Sendable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case strings([String])
        case null

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .boolean(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            case .null: try container.encodeNil()
            }
        }
    }

    public let files: [File]
    public let records: [Record]
    public let diagnostics: [Diagnostic]

    /// Reads each file offline (nothing is loaded or run).
    public init(files paths: [String]) {
        self.init(paths.map { SectionReader.readFile(atPath: $0) })
    }

    init(_ inspected: [ObjectAnnotations]) {
        files = inspected.map { object in
            let readable = !object.diagnostics.contains(where: \.isUnreadableFile)
            let linkage = readable ? try? ObjectLinkage.read(atPath: object.object.path).get() : nil
            return File(
                file: object.object.path, readable: readable, annotated: object.isAnnotated, buildID: object.object.buildID,
                interface: linkage?.interfaceFingerprint.map(PluginIncompatibility.hex),
                incompatibility: linkage.flatMap(PluginIncompatibility.of)?.description,
                swiftModules: linkage?.swiftModules.keys.sorted() ?? [], swiftToolchain: linkage?.swiftToolchain)
        }
        records = inspected.flatMap { object in
            Self.ordered(object.records).map { record in
                Record(
                    file: object.object.path, section: record.origin.section, offset: record.origin.offset,
                    kind: record.kind.rawValue, record: record.text, fields: record.payload.fields)
            }
        }
        diagnostics = inspected.flatMap { object in
            (object.diagnostics + Self.duplicates(in: object)).map { diagnostic in
                Diagnostic(
                    file: diagnostic.objectPath ?? object.object.path, section: diagnostic.section,
                    record: diagnostic.record, kind: diagnostic.kind.name, severity: diagnostic.severity.rawValue,
                    message: diagnostic.message)
            }
        }
    }

    /// Whether some file could not be read as ELF: `inspect` exits non-zero then.
    public var hasUnreadableFile: Bool { files.contains { !$0.readable } }

    private static func ordered(_ records: some Sequence<AnnotationRecord>) -> [AnnotationRecord] {
        records.sorted { (sectionRank($0), $0.origin.offset) < (sectionRank($1), $1.origin.offset) }
    }

    /// Records that declare again what an earlier record of the same file declares, as discovery would report
    /// them once the file is loaded. Duplicates across files are lint's business: it sees the set.
    private static func duplicates(in object: ObjectAnnotations) -> [RegistryDiagnostic] {
        var seen = Set<RecordIdentity>()
        return ordered(object.records).compactMap { record in
            if seen.insert(record.identity).inserted { return nil }
            return RegistryDiagnostic(
                    .duplicate(record.identity, firstObject: object.object.path), objectPath: object.object.path,
                section: record.origin.section, record: record.text)
        }
    }

    /// Sections in the order modules, services, routes, as `readelf -p` is usually asked for them.
    private static func sectionRank(_ record: AnnotationRecord) -> Int {
        SectionName.all.firstIndex(of: record.origin.section) ?? SectionName.all.count
    }

    /// One row per record under a header, then one line per diagnostic.
    public var table: String {
        let header = ["FILE", "SECTION", "OFFSET", "KIND", "RECORD"]
        let rows = records.map { [$0.file, $0.section, String($0.offset), $0.kind, $0.record] }
        var output = ""
        if !rows.isEmpty {
            let widths = (0..<header.count - 1).map { column in
                ([header] + rows).map { $0[column].count }.max() ?? 0
            }
            for row in [header] + rows {
                let padded = zip(row, widths).enumerated().map { column, cell in
                    let (text, width) = cell
                    let padding = String(repeating: " ", count: width - text.count)
                    return column == 2 ? padding + text : text + padding
                }
                output += (padded + [row[header.count - 1]]).joined(separator: "  ") + "\n"
            }
        }
        for file in files where file.readable && !file.annotated {
            if records.contains(where: { $0.file == file.file }) {
                output += "\(file.file): warning: records without the BeeHive note; discovery skips this file at run time\n"
            } else if !diagnostics.contains(where: { $0.file == file.file }) {
                output += "\(file.file): no BeeHive annotations\n"
            }
        }
        for file in files {
            if let incompatibility = file.incompatibility {
                output += "\(file.file): warning: a host built with this BeeHive refuses to load it: \(incompatibility)\n"
            }
        }
        for diagnostic in diagnostics {
            var line = "\(diagnostic.file)"
            if let section = diagnostic.section { line += " [\(section)]" }
            line += ": \(diagnostic.severity): \(diagnostic.message)"
            if let record = diagnostic.record { line += ": \"\(record)\"" }
            output += line + "\n"
        }
        return output
    }
}

extension RegistryDiagnostic {
    fileprivate var isUnreadableFile: Bool {
        switch kind {
        case .unreadableObject, .notELF, .notRegularFile, .malformedObject: true
        default: false
        }
    }
}

extension AnnotationRecord.Payload {
    fileprivate var fields: [String: InspectionReport.FieldValue] {
        switch self {
        case .module(let module):
            [
                "type": .string(module.typeName), "level": .string(module.level.rawValue),
                "priority": .integer(module.priority), "async": .boolean(module.isAsync),
                "depends": .strings(module.dependencies), "ondemand": .boolean(module.isOnDemand),
            ]
        case .service(let service):
            [
                "protocol": .string(service.protocolName), "type": .string(service.typeName),
                "scope": .string(service.scope.rawValue), "name": service.name.map { .string($0) } ?? .null,
            ]
        case .route(let route):
            [
                "pattern": .string(route.pattern), "type": .string(route.typeName),
                "scheme": route.scheme.map { .string($0) } ?? .null, "priority": .integer(route.priority),
            ]
        case .target(let target):
            ["name": .string(target.name), "type": .string(target.typeName)]
        }
    }
}
