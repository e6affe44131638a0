import BeeHive

/// What the host prints, as JSON, for the tests to compare.
struct Report: Codable {
    struct Object: Codable {
        let path: String
        let buildID: String?
        let annotated: Bool
    }

    struct Record: Codable {
        let kind: String
        let section: String
        let object: String
        let offset: Int
        let text: String
    }

    struct Diagnostic: Codable {
        let kind: String
        let severity: String
        let object: String?
        let section: String?
        let record: String?
        /// For duplicates, the object that declared it first.
        let firstObject: String?
        let message: String
    }

    var objects: [Object] = []
    var records: [Record] = []
    var diagnostics: [Diagnostic] = []

    init(registry: AnnotationRegistry) {
        objects = registry.objects.map {
            Object(path: $0.object.path, buildID: $0.object.buildID, annotated: $0.isAnnotated)
        }
        records = registry.records.map(Record.init)
        diagnostics = registry.diagnostics.map(Diagnostic.init)
    }

    init(update: RegistryUpdate, removed: Bool = false) {
        let objects = removed ? update.unloadedObjects : update.loadedObjects
        self.objects = objects.map { Object(path: $0.path, buildID: $0.buildID, annotated: true) }
        records = (removed ? update.removed : update.added).map(Record.init)
        diagnostics = update.diagnostics.map(Diagnostic.init)
    }
}

extension Report.Record {
    init(_ record: AnnotationRecord) {
        self.init(
            kind: record.kind.rawValue, section: record.origin.section, object: record.origin.objectPath,
            offset: record.origin.offset, text: record.text)
    }
}

extension Report.Diagnostic {
    init(_ diagnostic: RegistryDiagnostic) {
        var firstObject: String?
        if case .duplicate(_, let first) = diagnostic.kind { firstObject = first }
        self.init(
            kind: diagnostic.kind.name, severity: diagnostic.severity.rawValue, object: diagnostic.objectPath,
            section: diagnostic.section, record: diagnostic.record, firstObject: firstObject,
            message: diagnostic.message)
    }
}
