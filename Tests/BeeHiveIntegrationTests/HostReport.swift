import Foundation

/// What the fixture host prints (Tests/Fixtures/RegistryHost/Sources/HostCore/Report.swift), decoded.
struct HostReport: Decodable, Equatable {
    struct Object: Decodable, Equatable {
        let path: String
        let buildID: String?
        let annotated: Bool
    }

    struct Record: Decodable, Equatable {
        let kind: String
        let section: String
        let object: String
        let offset: Int
        let text: String
    }

    struct Diagnostic: Decodable, Equatable {
        let kind: String
        let severity: String
        let object: String?
        let section: String?
        let record: String?
        let firstObject: String?
        let message: String
    }

    let objects: [Object]
    let records: [Record]
    let diagnostics: [Diagnostic]

    /// "object section record" per record, object by file name, sorted: the registry's own order is checked
    /// by the unit tests and by LinkOrderTests, which compares two whole outputs.
    var recordLines: [String] {
        records.map { "\($0.object.fileName) \($0.section) \($0.text)" }.sorted()
    }

    /// "kind object section record [first object]" per diagnostic, sorted: within one object, diagnostics come
    /// in the order of the sections in the file, which is the linker's choice.
    var diagnosticLines: [String] {
        diagnostics.map { diagnostic in
            var line = "\(diagnostic.kind) \(diagnostic.object?.fileName ?? "-") \(diagnostic.section ?? "-") \(diagnostic.record ?? "-")"
            if let first = diagnostic.firstObject { line += " first=\(first.fileName)" }
            return line
        }.sorted()
    }

    var objectNames: [String] { objects.map(\.path.fileName) }

    /// The same report with every occurrence of `path` replaced, to compare two executables' output.
    func replacingPath(_ path: String, with replacement: String) -> HostReport {
        func swap(_ text: String) -> String { text.replacingOccurrences(of: path, with: replacement) }
        return HostReport(
            objects: objects.map { Object(path: swap($0.path), buildID: nil, annotated: $0.annotated) },
            records: records.map { Record(kind: $0.kind, section: $0.section, object: swap($0.object), offset: $0.offset, text: $0.text) },
            diagnostics: diagnostics.map {
                Diagnostic(
                    kind: $0.kind, severity: $0.severity, object: $0.object.map(swap), section: $0.section,
                    record: $0.record, firstObject: $0.firstObject.map(swap), message: swap($0.message))
            })
    }
}

/// `host plugins`: the registry before, the update after loading, the update after unloading, the registry after.
struct PluginPhases: Decodable {
    let before: HostReport
    let loaded: HostReport
    let staysLoaded: [Bool]
    let unloaded: HostReport
    let after: HostReport
}

struct RaceResult: Decodable {
    let rounds: Int
    let refreshesWithChanges: Int
    let final: HostReport
}

struct Resolution: Decodable, Equatable {
    let type: String
    let resolved: Bool
    let diagnostic: String?
}

extension String {
    var fileName: String { (self as NSString).lastPathComponent }
}
