/// Parses the strings the annotations store in sections. Strict: anything it does not fully understand is a
/// diagnostic, never a guess.
public enum RecordParser {
    public static let versionPrefix = "beehive:"
    public static let currentVersion = "1"
    /// Longer records are refused: no name or URL pattern is that long, and a missing NUL would read on.
    public static let maximumRecordLength = 4096

    /// Splits a section's bytes into records. Runs of NUL bytes are padding (compilers and sanitizers align
    /// and pad globals) and are skipped.
    public static func records(
        inSection section: String, bytes: some Collection<UInt8>, objectPath: String
    ) -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        var records: [AnnotationRecord] = []
        var diagnostics: [RegistryDiagnostic] = []
        let bytes = Array(bytes)
        var start = 0
        while start < bytes.count {
            if bytes[start] == 0 {
                start += 1
                continue
            }
            let end = bytes[start...].firstIndex(of: 0)
            let chunk = bytes[start..<(end ?? bytes.count)]
            let origin = RecordOrigin(objectPath: objectPath, section: section, offset: start)
            if end == nil {
                diagnostics.append(
                    RegistryDiagnostic(
                        .malformedRecord(reason: "not NUL-terminated at the end of the section"),
                        objectPath: objectPath, section: section, record: printable(chunk)))
            } else {
                switch parse(bytes: chunk, origin: origin) {
                case .success(let record): records.append(record)
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
            start = (end ?? bytes.count) + 1
        }
        return (records, diagnostics)
    }

    /// Parses one record (without its NUL) and checks it belongs in the section it came from.
    public static func parse(bytes: some Collection<UInt8>, origin: RecordOrigin) -> Result<AnnotationRecord, RegistryDiagnostic> {
        func failure(_ kind: RegistryDiagnostic.Kind) -> Result<AnnotationRecord, RegistryDiagnostic> {
            .failure(RegistryDiagnostic(kind, objectPath: origin.objectPath, section: origin.section, record: printable(bytes)))
        }
        if bytes.count > maximumRecordLength { return failure(.oversizedRecord(length: bytes.count)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return failure(.invalidUTF8) }
        let record: AnnotationRecord
        do {
            record = AnnotationRecord(payload: try payload(of: text), text: text, origin: origin)
        } catch {
            return failure(error.kind)
        }
        if record.kind.section != origin.section {
            return failure(.misplacedRecord(kind: record.kind, expectedSection: record.kind.section))
        }
        return .success(record)
    }

    /// Parses a record's text into what it declares; the error carries no object or section.
    public static func payload(of text: String) throws(RegistryDiagnostic) -> AnnotationRecord.Payload {
        do {
            return try parsePayload(text)
        } catch {
            throw RegistryDiagnostic(error.kind, record: text)
        }
    }

    private struct Failure: Error {
        let kind: RegistryDiagnostic.Kind
        static func malformed(_ reason: String) -> Failure { Failure(kind: .malformedRecord(reason: reason)) }
    }

    private static func parsePayload(_ text: String) throws(Failure) -> AnnotationRecord.Payload {
        // Split the UTF-8 bytes: '|' is ASCII, so no field boundary falls inside a character, and this avoids
        // grapheme breaking over every record.
        let fields = text.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let header = fields[0]
        guard header.hasPrefix(versionPrefix) else {
            throw .malformed("expected '\(versionPrefix)\(currentVersion)' at the start")
        }
        let version = String(header.dropFirst(versionPrefix.count))
        guard version == currentVersion else {
            if !version.isEmpty, version.allSatisfy(\.isASCIIDigit) { throw Failure(kind: .unknownVersion(header)) }
            throw .malformed("bad version '\(header)'")
        }
        guard fields.count >= 3 else { throw .malformed("expected a kind and a name after '\(header)'") }
        switch fields[1] {
        case "module":
            let typeName = try typeName(fields[2], role: "module type")
            let attributes = try Attributes(fields[3...], allowed: ["level", "priority", "async"])
            let level = try attributes.take("level") { ModuleLevel(rawValue: $0) } ?? .normal
            let priority = try attributes.take("priority", integer) ?? 0
            let isAsync = try attributes.take("async") { ["0": false, "1": true][$0] } ?? false
            return .module(ModuleAnnotation(typeName: typeName, level: level, priority: priority, isAsync: isAsync))
        case "service":
            guard fields.count >= 4 else { throw .malformed("a service record names a protocol and a type") }
            let protocolName = try typeName(fields[2], role: "service protocol")
            let implementation = try typeName(fields[3], role: "service type")
            let attributes = try Attributes(fields[4...], allowed: ["scope", "name"])
            let scope = try attributes.take("scope") { ServiceScope(rawValue: $0) } ?? .transient
            let name = try attributes.take("name") { value -> String?? in
                value.isEmpty ? .some(nil) : (isServiceName(value) ? .some(value) : nil)
            } ?? nil
            if scope == .named && name == nil { throw .malformed("scope=named needs a non-empty name") }
            return .service(ServiceAnnotation(protocolName: protocolName, typeName: implementation, scope: scope, name: name))
        case "route":
            guard fields.count >= 4 else { throw .malformed("a route record names a pattern and a type") }
            let pattern = fields[2]
            guard !pattern.isEmpty, pattern.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                throw .malformed("route pattern '\(pattern)' is empty or contains spaces or control characters")
            }
            let handler = try typeName(fields[3], role: "route handler type")
            let attributes = try Attributes(fields[4...], allowed: ["scheme", "priority"])
            let scheme = try attributes.take("scheme") { value -> String?? in
                value.isEmpty ? .some(nil) : (isScheme(value) ? .some(value) : nil)
            } ?? nil
            let priority = try attributes.take("priority", integer) ?? 0
            return .route(RouteAnnotation(pattern: pattern, typeName: handler, scheme: scheme, priority: priority))
        case "target":
            guard fields.count == 4 else { throw .malformed("a target record is 'target|<name>|<type>'") }
            guard isServiceName(fields[2]) else { throw .malformed("bad target name '\(fields[2])'") }
            return .target(TargetAnnotation(name: fields[2], typeName: try typeName(fields[3], role: "target type")))
        default:
            throw .malformed("unknown record kind '\(fields[1])' (module, service, route or target)")
        }
    }

    /// `key=value` fields after the positional ones; each key at most once, and only the allowed keys.
    /// A record has at most three attributes, so plain arrays beat hashing here.
    private struct Attributes {
        private var values: [(key: String, value: String)] = []

        init(_ fields: ArraySlice<String>, allowed: [String]) throws(Failure) {
            for field in fields {
                guard let equals = field.firstIndex(of: "=") else {
                    throw .malformed("expected key=value, found '\(field)'")
                }
                let key = String(field[..<equals])
                guard allowed.contains(key) else {
                    throw .malformed("unknown attribute '\(key)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
                }
                guard !values.contains(where: { $0.key == key }) else { throw .malformed("attribute '\(key)' given twice") }
                values.append((key, String(field[field.index(after: equals)...])))
            }
        }

        func take<T>(_ key: String, _ convert: (String) -> T?) throws(Failure) -> T? {
            guard let raw = values.first(where: { $0.key == key })?.value else { return nil }
            guard let value = convert(raw) else { throw .malformed("bad value '\(raw)' for \(key)") }
            return value
        }
    }

    private static func integer(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// `Module.Type`, `Module.Outer.Inner`, or a mangled name such as `4Demo4ImplV`.
    private static func typeName(_ text: String, role: String) throws(Failure) -> String {
        var componentLength = 0
        var valid = !text.isEmpty
        for scalar in text.unicodeScalars where valid {
            if scalar == "." {
                valid = componentLength > 0
                componentLength = 0
            } else {
                valid = isIdentifierScalar(scalar)
                componentLength += 1
            }
        }
        guard valid && componentLength > 0 else { throw .malformed("bad \(role) name '\(text)'") }
        return text
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$": true
        default: !scalar.isASCII && scalar.properties.isAlphabetic
        }
    }

    private static func isServiceName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
    }

    private static func isScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    /// The record's text for a diagnostic, valid or not.
    static func printable(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.prefix(200), as: UTF8.self) + (bytes.count > 200 ? "…" : "")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
