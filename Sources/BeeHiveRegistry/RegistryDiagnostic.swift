/// Something discovery found wrong, with the object file, section and record involved.
///
/// Discovery never stops at a bad record or object: it collects one of these and goes on with the rest.
public struct RegistryDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public enum Kind: Sendable, Hashable {
        /// The record does not follow the record syntax; the reason says where.
        case malformedRecord(reason: String)
        /// The record starts with a version this build does not read (`beehive:2|...`).
        case unknownVersion(String)
        /// The record is longer than `RecordParser.maximumRecordLength` bytes.
        case oversizedRecord(length: Int)
        /// The record is not valid UTF-8.
        case invalidUTF8
        /// The record is of a kind that belongs in another section.
        case misplacedRecord(kind: AnnotationKind, expectedSection: String)
        /// The same module, service, route or target is declared again; `firstObject` holds the other one.
        case duplicate(RecordIdentity, firstObject: String)
        /// The object file could not be opened or read.
        case unreadableObject(reason: String)
        case notELF
        /// The path names a directory, FIFO, socket or device (`fileKind` says which), not an object file.
        case notRegularFile(fileKind: String)
        /// The ELF structure itself is damaged (a wrong byte-order flag, no section name table); the reason says how.
        case malformedObject(reason: String)
        /// The file has no section table (`llvm-objcopy --strip-sections`) and its note carries no offsets (it was
        /// built before they existed, or is read offline), so its annotations cannot be found.
        case sectionHeadersMissing
        /// The file on disk is not the object in memory (it was replaced after it was loaded).
        case buildIDMismatch
        case programHeadersMismatch
        case contentMismatch
        case sectionOutsideSegment
        case sectionTooLarge(size: Int)
        case sectionUnreadable
        /// An annotated name does not resolve to a type in this process.
        case unresolvedType(name: String)
        /// The type exists but does not conform to what the annotation needs.
        case nonConformingType(name: String, expected: String)

        /// The case's name (`duplicate`, `buildIDMismatch`...), stable for logs and JSON output.
        public var name: String {
            switch self {
            case .malformedRecord: "malformedRecord"
            case .unknownVersion: "unknownVersion"
            case .oversizedRecord: "oversizedRecord"
            case .invalidUTF8: "invalidUTF8"
            case .misplacedRecord: "misplacedRecord"
            case .duplicate: "duplicate"
            case .unreadableObject: "unreadableObject"
            case .notELF: "notELF"
            case .notRegularFile: "notRegularFile"
            case .malformedObject: "malformedObject"
            case .sectionHeadersMissing: "sectionHeadersMissing"
            case .buildIDMismatch: "buildIDMismatch"
            case .programHeadersMismatch: "programHeadersMismatch"
            case .contentMismatch: "contentMismatch"
            case .sectionOutsideSegment: "sectionOutsideSegment"
            case .sectionTooLarge: "sectionTooLarge"
            case .sectionUnreadable: "sectionUnreadable"
            case .unresolvedType: "unresolvedType"
            case .nonConformingType: "nonConformingType"
            }
        }
    }

    public let kind: Kind
    public let objectPath: String?
    public let section: String?
    /// The offending record's text, with invalid bytes replaced.
    public let record: String?

    package init(_ kind: Kind, objectPath: String? = nil, section: String? = nil, record: String? = nil) {
        self.kind = kind
        self.objectPath = objectPath
        self.section = section
        self.record = record
    }

    public var severity: Severity {
        switch kind {
        case .duplicate, .sectionHeadersMissing: .warning
        default: .error
        }
    }

    public var message: String {
        switch kind {
        case .malformedRecord(let reason): "malformed record: \(reason)"
        case .unknownVersion(let version): "unknown record version '\(version)' (this build reads beehive:1)"
        case .oversizedRecord(let length):
            "record of \(length) bytes exceeds the \(RecordParser.maximumRecordLength)-byte limit"
        case .invalidUTF8: "record is not valid UTF-8"
        case .misplacedRecord(let kind, let expected): "\(kind.rawValue) record belongs in section \(expected)"
        case .duplicate(let identity, let first): "\(identity) is declared again; first declared in \(first)"
        case .unreadableObject(let reason): "cannot read the object file: \(reason)"
        case .notELF: "not an ELF file"
        case .notRegularFile(let fileKind): "not an object file: it is \(fileKind); give the path of an executable or library"
        case .malformedObject(let reason): "damaged ELF file: \(reason)"
        case .sectionHeadersMissing:
            "no section headers (stripped with --strip-sections?); its annotations cannot be read"
        case .buildIDMismatch:
            "the file on disk has another build-id than the loaded object (replaced after loading?); its annotations were not read"
        case .programHeadersMismatch:
            "the file on disk does not match the loaded object's program headers (replaced after loading?); its annotations were not read"
        case .contentMismatch:
            "the file's annotation sections differ from the loaded object's memory (replaced after loading?); its annotations were not read"
        case .sectionOutsideSegment: "section lies outside every readable loaded segment; not read"
        case .sectionTooLarge(let size): "section of \(UInt(bitPattern: size)) bytes is too large; not read"
        case .sectionUnreadable: "section data cannot be read"
        case .unresolvedType(let name):
            "type '\(name)' is not found in the process (only top-level classes resolve by 'Module.Type'; other types need a mangled name)"
        case .nonConformingType(let name, let expected): "type '\(name)' does not conform to \(expected)"
        }
    }

    public var description: String {
        var place = objectPath ?? "<unknown object>"
        if let section { place += " [\(section)]" }
        if let record { return "\(place): \(message): \"\(record)\"" }
        return "\(place): \(message)"
    }
}
