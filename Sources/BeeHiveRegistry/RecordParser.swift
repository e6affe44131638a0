/// Parses the strings the annotations store in sections. Strict: anything it does not fully understand is a
/// diagnostic, never a guess.
///
/// It works on the UTF-8 bytes in place, because it runs at startup over every record of the process.
public enum RecordParser {
    /// `versionPrefix + currentVersion` is `BEEHIVE_RECORD_VERSION` of `beehive.h` (checked by WireFormatTests).
    public static let versionPrefix = "beehive:"
    public static let currentVersion = "1"
    /// Longer records are refused: no name or URL pattern is that long, and a missing NUL would read on.
    public static let maximumRecordLength = 4096

    /// Splits a section's bytes into records. Runs of NUL bytes are padding (compilers and sanitizers align
    /// and pad globals) and are skipped.
    public static func records(
        inSection section: String, bytes: some Collection<UInt8>, objectPath: String
    ) -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        if let result = bytes.withContiguousStorageIfAvailable({ records(section, $0, objectPath) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { records(section, $0, objectPath) }
    }

    private static func records(
        _ section: String, _ bytes: UnsafeBufferPointer<UInt8>, _ objectPath: String
    ) -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        var records: [AnnotationRecord] = []
        var diagnostics: [RegistryDiagnostic] = []
        var start = 0
        while start < bytes.count {
            if bytes[start] == 0 {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count && bytes[end] != 0 { end += 1 }
            let chunk = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if end == bytes.count {
                diagnostics.append(
                    RegistryDiagnostic(
                        .malformedRecord(reason: "not NUL-terminated at the end of the section"),
                        objectPath: objectPath, section: section, record: printable(chunk)))
            } else {
                let origin = RecordOrigin(objectPath: objectPath, section: section, offset: start)
                switch parse(bytes: chunk, origin: origin) {
                case .success(let record): records.append(record)
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
            start = end + 1
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
        let payload: AnnotationRecord.Payload
        switch parsePayload(text) {
        case .success(let parsed): payload = parsed
        case .failure(let error): return failure(error.kind)
        }
        let record = AnnotationRecord(payload: payload, text: text, origin: origin)
        if record.kind.section != origin.section {
            return failure(.misplacedRecord(kind: record.kind, expectedSection: record.kind.section))
        }
        return .success(record)
    }

    /// Parses a record's text into what it declares; the error carries no object or section.
    public static func payload(of text: String) throws(RegistryDiagnostic) -> AnnotationRecord.Payload {
        switch parsePayload(text) {
        case .success(let payload): return payload
        case .failure(let error): throw RegistryDiagnostic(error.kind, record: text)
        }
    }

    private struct Failure: Error {
        let kind: RegistryDiagnostic.Kind
        static func malformed(_ reason: String) -> Failure { Failure(kind: .malformedRecord(reason: reason)) }
    }

    private static func parsePayload(_ text: String) -> Result<AnnotationRecord.Payload, Failure> {
        if let result = text.utf8.withContiguousStorageIfAvailable({ bytes in Result { () throws(Failure) in try Record(bytes).payload() } }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { bytes in Result { () throws(Failure) in try Record(bytes).payload() } }
    }

    /// One record's bytes, split at '|'.
    private struct Record {
        let bytes: UnsafeBufferPointer<UInt8>
        var fields: [Range<Int>] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            fields.reserveCapacity(8)
            var start = 0
            for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "|") {
                fields.append(start..<index)
                start = index + 1
            }
            fields.append(start..<bytes.count)
        }

        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        func field(_ range: Range<Int>, equals literal: StaticString) -> Bool {
            guard range.count == literal.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            return zip(bytes[range], expected).allSatisfy { $0 == $1 }
        }

        func payload() throws(Failure) -> AnnotationRecord.Payload {
            let header = fields[0]
            let prefix = header.lowerBound..<min(header.upperBound, header.lowerBound + 8)
            guard field(prefix, equals: "beehive:") else {
                throw .malformed("expected '\(versionPrefix)\(currentVersion)' at the start")
            }
            let version = prefix.upperBound..<header.upperBound
            guard field(version, equals: "1") else {
                if !version.isEmpty, bytes[version].allSatisfy(isDigit) { throw Failure(kind: .unknownVersion(string(header))) }
                throw .malformed("bad version '\(string(header))'")
            }
            guard fields.count >= 3 else { throw .malformed("expected a kind and a name after '\(string(header))'") }
            let kind = fields[1]
            if field(kind, equals: "module") {
                let typeName = try self.typeName(fields[2], role: "module type")
                let values = try attributes(from: 3, allowed: ["level", "priority", "async"])
                let level = try value(values.0, for: "level") { range -> ModuleLevel? in
                    field(range, equals: "basic") ? .basic : field(range, equals: "normal") ? .normal : nil
                } ?? .normal
                let priority = try value(values.1, for: "priority", integer) ?? 0
                let isAsync = try value(values.2, for: "async") { range -> Bool? in
                    field(range, equals: "1") ? true : field(range, equals: "0") ? false : nil
                } ?? false
                return .module(ModuleAnnotation(typeName: typeName, level: level, priority: priority, isAsync: isAsync))
            }
            if field(kind, equals: "service") {
                guard fields.count >= 4 else { throw .malformed("a service record names a protocol and a type") }
                let protocolName = try typeName(fields[2], role: "service protocol")
                let implementation = try typeName(fields[3], role: "service type")
                let values = try attributes(from: 4, allowed: ["scope", "name"])
                let scope = try value(values.0, for: "scope") { ServiceScope(rawValue: string($0)) } ?? .transient
                let name = try value(values.1, for: "name") { range -> String?? in
                    range.isEmpty ? .some(nil) : (isName(range) ? .some(string(range)) : nil)
                } ?? nil
                if scope == .named && name == nil { throw .malformed("scope=named needs a non-empty name") }
                return .service(ServiceAnnotation(protocolName: protocolName, typeName: implementation, scope: scope, name: name))
            }
            if field(kind, equals: "route") {
                guard fields.count >= 4 else { throw .malformed("a route record names a pattern and a type") }
                let pattern = fields[2]
                guard !pattern.isEmpty, bytes[pattern].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                    throw .malformed("route pattern '\(string(pattern))' is empty or contains spaces or control characters")
                }
                let handler = try typeName(fields[3], role: "route handler type")
                let values = try attributes(from: 4, allowed: ["scheme", "priority"])
                let scheme = try value(values.0, for: "scheme") { range -> String?? in
                    range.isEmpty ? .some(nil) : (isScheme(range) ? .some(string(range)) : nil)
                } ?? nil
                let priority = try value(values.1, for: "priority", integer) ?? 0
                return .route(RouteAnnotation(pattern: string(pattern), typeName: handler, scheme: scheme, priority: priority))
            }
            if field(kind, equals: "target") {
                guard fields.count == 4 else { throw .malformed("a target record is 'target|<name>|<type>'") }
                guard isName(fields[2]) else { throw .malformed("bad target name '\(string(fields[2]))'") }
                return .target(TargetAnnotation(name: string(fields[2]), typeName: try typeName(fields[3], role: "target type")))
            }
            throw .malformed("unknown record kind '\(string(kind))' (module, service, route or target)")
        }

        /// The `key=value` fields from `first` on: each key at most once, and only the allowed keys (at most
        /// three), returned in the order of `allowed`.
        func attributes(from first: Int, allowed: [StaticString]) throws(Failure) -> (Range<Int>?, Range<Int>?, Range<Int>?) {
            var values: (Range<Int>?, Range<Int>?, Range<Int>?) = (nil, nil, nil)
            for range in fields.dropFirst(first) {
                guard let equals = bytes[range].firstIndex(of: UInt8(ascii: "=")) else {
                    throw .malformed("expected key=value, found '\(string(range))'")
                }
                let key = range.lowerBound..<equals
                let value = (equals + 1)..<range.upperBound
                guard let slot = allowed.firstIndex(where: { field(key, equals: $0) }) else {
                    let names = allowed.map { "\($0)" }.sorted().joined(separator: ", ")
                    throw .malformed("unknown attribute '\(string(key))' (allowed: \(names))")
                }
                let taken: Bool
                switch slot {
                case 0: taken = values.0 != nil; values.0 = value
                case 1: taken = values.1 != nil; values.1 = value
                default: taken = values.2 != nil; values.2 = value
                }
                if taken { throw .malformed("attribute '\(string(key))' given twice") }
            }
            return values
        }

        func value<T>(_ range: Range<Int>?, for key: String, _ convert: (Range<Int>) -> T?) throws(Failure) -> T? {
            guard let range else { return nil }
            guard let value = convert(range) else { throw .malformed("bad value '\(string(range))' for \(key)") }
            return value
        }

        func integer(_ range: Range<Int>) -> Int? {
            var digits = range
            var negative = false
            if let first = digits.first, bytes[first] == UInt8(ascii: "-") || bytes[first] == UInt8(ascii: "+") {
                negative = bytes[first] == UInt8(ascii: "-")
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 18, bytes[digits].allSatisfy(isDigit) else { return nil }
            let magnitude = bytes[digits].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            return negative ? -magnitude : magnitude
        }

        /// `Module.Type`, `Module.Outer.Inner`, or a mangled name such as `4Demo4ImplV`.
        func typeName(_ range: Range<Int>, role: String) throws(Failure) -> String {
            let text = string(range)
            guard isTypeName(range, text) else { throw .malformed("bad \(role) name '\(text)'") }
            return text
        }

        private func isTypeName(_ range: Range<Int>, _ text: String) -> Bool {
            guard !range.isEmpty else { return false }
            if bytes[range].allSatisfy({ $0 < 0x80 }) {
                var previousWasDot = true
                for byte in bytes[range] {
                    if byte == UInt8(ascii: ".") {
                        if previousWasDot { return false }
                        previousWasDot = true
                    } else if isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") {
                        previousWasDot = false
                    } else {
                        return false
                    }
                }
                return !previousWasDot
            }
            return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { component in
                !component.isEmpty && component.unicodeScalars.allSatisfy { scalar in
                    scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                }
            }
        }

        /// Service and target names: ASCII letters, digits, '_', '-' and '.'.
        func isName(_ range: Range<Int>) -> Bool {
            !range.isEmpty && bytes[range].allSatisfy {
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }

        /// URL schemes: a letter, then letters, digits, '+', '-' and '.'.
        func isScheme(_ range: Range<Int>) -> Bool {
            guard let first = range.first, isLetter(bytes[first]) else { return false }
            return bytes[range].allSatisfy {
                isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }
    }

    /// The record's text for a diagnostic, valid or not.
    static func printable(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.prefix(200), as: UTF8.self) + (bytes.count > 200 ? "…" : "")
    }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

private func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}
