import ArgumentParser
import BeeHiveRegistry
import Foundation

/// `beehive inspect FILE... [--json]`: the annotations of executables and shared libraries, read offline with
/// libelf (nothing is loaded or run). Exits non-zero only when a file cannot be read as ELF.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "List the BeeHive annotations stored in ELF files, without loading them.",
        discussion: """
            Prints one line per annotation record (file, section, byte offset, kind, record), then what is \
            wrong with any record or file. With --json, prints one JSON document; its fields are described \
            in docs/registry.md. The exit status is non-zero only when a file cannot be read as ELF.
            """
    )

    @Argument(help: "Executables, shared libraries or object files to read, or plugin folders (their shared objects).")
    var files: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let inspected = files.flatMap(Self.pluginFiles(in:)).map { SectionReader.readFile(atPath: $0) }
        let report = Report(inspected)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.table, terminator: "")
        }
        if report.files.contains(where: { !$0.readable }) { throw ExitCode.failure }
    }
}

extension InspectCommand {
    /// What `--json` prints.
    struct Report: Encodable {
        struct File: Encodable {
            let file: String
            /// False when the file could not be opened or is not ELF.
            let readable: Bool
            /// Whether the file carries the BeeHive note that lets discovery find it at run time.
            let annotated: Bool
            let buildID: String?
        }

        struct Record: Encodable {
            let file: String
            let section: String
            let offset: Int
            let kind: String
            /// The record exactly as stored.
            let record: String
            /// The parsed fields, defaults filled in.
            let fields: [String: FieldValue]
        }

        struct Diagnostic: Encodable {
            let file: String
            let section: String?
            let record: String?
            let kind: String
            let severity: String
            let message: String
        }

        let files: [File]
        let records: [Record]
        let diagnostics: [Diagnostic]

        init(_ inspected: [ObjectAnnotations]) {
            files = inspected.map { object in
                File(
                    file: object.object.path, readable: !object.diagnostics.contains(where: \.isUnreadableFile),
                    annotated: object.isAnnotated, buildID: object.object.buildID)
            }
            records = inspected.flatMap { object in
                object.records.sorted { (Self.sectionRank($0), $0.origin.offset) < (Self.sectionRank($1), $1.origin.offset) }
                    .map { record in
                        Record(
                            file: object.object.path, section: record.origin.section, offset: record.origin.offset,
                            kind: record.kind.rawValue, record: record.text, fields: record.payload.fields)
                    }
            }
            diagnostics = inspected.flatMap { object in
                object.diagnostics.map { diagnostic in
                    Diagnostic(
                        file: diagnostic.objectPath ?? object.object.path, section: diagnostic.section,
                        record: diagnostic.record, kind: diagnostic.kind.name, severity: diagnostic.severity.rawValue,
                        message: diagnostic.message)
                }
            }
        }

        /// Sections in the order modules, services, routes, as `readelf -p` is usually asked for them.
        private static func sectionRank(_ record: AnnotationRecord) -> Int {
            SectionName.all.firstIndex(of: record.origin.section) ?? SectionName.all.count
        }

        /// One row per record under a header, then one line per diagnostic.
        var table: String {
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

    /// A JSON scalar in a record's parsed fields.
    enum FieldValue: Encodable, Equatable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case null

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .boolean(let value): try container.encode(value)
            case .null: try container.encodeNil()
            }
        }
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
    fileprivate var fields: [String: InspectCommand.FieldValue] {
        switch self {
        case .module(let module):
            [
                "type": .string(module.typeName), "level": .string(module.level.rawValue),
                "priority": .integer(module.priority), "async": .boolean(module.isAsync),
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
