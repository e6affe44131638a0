#if canImport(Glibc)
import Glibc
#endif

/// Parses the strings the annotations store in sections. Strict: anything it does not fully understand is a
/// diagnostic, never a guess.
///
/// It runs at startup over every record of the process, so it validates the bytes in place and makes no
/// string for a valid record: the record keeps where its fields lie (`RecordLayout`) and makes its strings
/// when asked.
@_spi(BeeHiveInternals)
public enum RecordParser {
    /// `versionPrefix + currentVersion` is `BEEHIVE_RECORD_VERSION` of `beehive.h` (checked by WireFormatTests);
    /// the words the hot paths compare records with are made from them (`RecordPrefix`).
    public static let versionPrefix = "beehive:"
    public static let currentVersion = "1"
    /// Longer records are refused: no name or URL pattern is that long, and a missing NUL would read on.
    public static let maximumRecordLength = 4096

    /// The attributes each kind accepts, in the order their values are checked. Adding one: list it here and
    /// read its slot in `Record.layout()`.
    static let moduleAttributes: [StaticString] = ["level", "priority", "async", dependsAttribute, onDemandAttribute]
    /// The module attribute that lists its dependencies: `BEEHIVE_ATTRIBUTE_DEPENDS` of `beehive.h`.
    package static let dependsAttribute: StaticString = "depends"
    /// The module attribute that lets its plugin load on first use: `BEEHIVE_ATTRIBUTE_ON_DEMAND` of `beehive.h`.
    package static let onDemandAttribute: StaticString = "ondemand"
    static let serviceAttributes: [StaticString] = ["scope", "name"]
    static let routeAttributes: [StaticString] = ["scheme", "priority"]

    /// Splits a section's bytes into records. Runs of NUL bytes are padding (compilers and sanitizers align
    /// and pad globals) and are skipped.
    public static func records(
        inSection section: String, bytes: some Collection<UInt8>, objectPath: String
    ) -> (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        let copy = bytes.withContiguousStorageIfAvailable {
            SectionBytes(copying: UnsafeRawBufferPointer($0), section: section, objectPath: objectPath)
        } ?? Array(bytes).withUnsafeBytes { SectionBytes(copying: $0, section: section, objectPath: objectPath) }
        var layouts: [RecordLayout] = []
        var diagnostics: [RegistryDiagnostic] = []
        parse(copy, index: 0, into: &layouts, &diagnostics)
        return (layouts.map { AnnotationRecord(bytes: copy, layout: $0) }, diagnostics)
    }

    /// A guess at the number of records in a section, to size arrays once: records are rarely shorter.
    static func estimatedRecordCount(in bytes: SectionBytes) -> Int { bytes.buffer.count / 24 }

    /// The hot path: every record of one section, appended to `layouts` without a string, an allocation or a
    /// reference count per valid record. `index` is the section's place among its object's sections.
    static func parse(
        _ bytes: SectionBytes, index: UInt8, into layouts: inout [RecordLayout], _ diagnostics: inout [RegistryDiagnostic]
    ) {
        let buffer = bytes.buffer
        guard let base = buffer.baseAddress else { return }
        let section = bytes.section
        // The kinds this section holds, one bit each (AnnotationKind.order).
        let expectedKinds: UInt8 = switch section {
        case SectionName.modules: 0b0001
        case SectionName.services: 0b0010
        case SectionName.routes: 0b1100
        default: 0
        }
        // Read once for the section rather than once per record: it is a lazily made global.
        let prefix = RecordPrefix.current
        var start = 0
        while start < buffer.count {
            if base.load(fromByteOffset: start, as: UInt8.self) == 0 {
                start += 1
                continue
            }
            if expectedKinds & 1 != 0, let length = bareModuleRecordLength(base, at: start, count: buffer.count, prefix: prefix) {
                // Valid as it stands: nothing past the name to read, and the defaults stand.
                var layout = RecordLayout(
                    offset: start, start: start, length: UInt16(truncatingIfNeeded: length), kind: .module,
                    name: RecordLayout.Span(start: UInt16(truncatingIfNeeded: prefix.module.length), end: UInt16(truncatingIfNeeded: length)))
                layout.section = index
                layouts.append(layout)
                start += length + 1
                continue
            }
            var scan = RecordScan(base, from: start, count: buffer.count, prefix: prefix)
            let end = start + scan.length
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            if end == buffer.count {
                diagnostics.append(
                    RegistryDiagnostic(
                        .malformedRecord(reason: "not NUL-terminated at the end of the section"),
                        objectPath: bytes.objectPath, section: section, record: printable(chunk)))
            } else {
                layouts.append(.unparsed)
                let last = layouts.count - 1
                do throws(Failure) {
                    try layout(of: chunk, at: start, scan: &scan, prefix: prefix, into: &layouts[last])
                    let kind = layouts[last].kind
                    if expectedKinds & (1 << kind.order) != 0 {
                        layouts[last].section = index
                    } else {
                        layouts.removeLast()
                        diagnostics.append(
                            RegistryDiagnostic(
                                .misplacedRecord(kind: kind, expectedSection: kind.section),
                                objectPath: bytes.objectPath, section: section, record: printable(chunk)))
                    }
                } catch {
                    layouts.removeLast()
                    diagnostics.append(
                        RegistryDiagnostic(error.kind, objectPath: bytes.objectPath, section: section, record: printable(chunk)))
                }
            }
            start = end + 1
        }
    }

    /// Parses one record (without its NUL) and checks it belongs in the section it came from.
    public static func parse(bytes: some Collection<UInt8>, origin: RecordOrigin) -> Result<AnnotationRecord, RegistryDiagnostic> {
        let copy = bytes.withContiguousStorageIfAvailable {
            SectionBytes(copying: UnsafeRawBufferPointer($0), section: origin.section, objectPath: origin.objectPath)
        } ?? Array(bytes).withUnsafeBytes { SectionBytes(copying: $0, section: origin.section, objectPath: origin.objectPath) }
        func failure(_ kind: RegistryDiagnostic.Kind) -> Result<AnnotationRecord, RegistryDiagnostic> {
            .failure(RegistryDiagnostic(kind, objectPath: origin.objectPath, section: origin.section, record: printable(copy.buffer)))
        }
        let result = Result { () throws(Failure) in try layout(of: copy.buffer, at: origin.offset) }
        switch result {
        case .failure(let error): return failure(error.kind)
        case .success(let layout) where layout.kind.section != origin.section:
            return failure(.misplacedRecord(kind: layout.kind, expectedSection: layout.kind.section))
        case .success(var layout):
            // The record's offset is the one given, but its bytes start the copy.
            layout.start = 0
            return .success(AnnotationRecord(bytes: copy, layout: layout))
        }
    }

    /// Parses a record's text into what it declares; the error carries no object or section.
    public static func payload(of text: String) throws(RegistryDiagnostic) -> AnnotationRecord.Payload {
        let copy = Array(text.utf8).withUnsafeBytes { SectionBytes(copying: $0, section: "", objectPath: "") }
        do throws(Failure) {
            return try layout(of: copy.buffer, at: 0).payload(in: copy)
        } catch {
            throw RegistryDiagnostic(error.kind, record: text)
        }
    }

    struct Failure: Error {
        let kind: RegistryDiagnostic.Kind
        static func malformed(_ reason: String) -> Failure { Failure(kind: .malformedRecord(reason: reason)) }
    }

    /// Validates one record in place; `offset` is where it starts in its section.
    static func layout(of bytes: UnsafeRawBufferPointer, at offset: Int) throws(Failure) -> RecordLayout {
        let prefix = RecordPrefix.current
        var scan = bytes.baseAddress.map { RecordScan($0, from: 0, count: bytes.count, prefix: prefix) }
            ?? .unscanned(length: 0, isASCII: true)
        // A NUL inside a record handed over on its own is one more byte that no field accepts; the scan stops
        // at NULs, so such a record has its fields searched for.
        if scan.length != bytes.count { scan = .unscanned(length: bytes.count, isASCII: isASCII(bytes)) }
        var layout = RecordLayout.unparsed
        try self.layout(of: bytes, at: offset, scan: &scan, prefix: prefix, into: &layout)
        return layout
    }

    /// Validates one record whose separators `scan` found, reading its fields through `scan`. Writes `layout`
    /// in place: the section parser passes an element of its array, since a layout built elsewhere and copied
    /// in stalled the copy (its fields were still being stored).
    private static func layout(
        of bytes: UnsafeRawBufferPointer, at offset: Int, scan: inout RecordScan, prefix: RecordPrefix,
        into layout: inout RecordLayout
    ) throws(Failure) {
        if bytes.count > maximumRecordLength { throw Failure(kind: .oversizedRecord(length: bytes.count)) }
        if !scan.isASCII && String(validating: bytes, as: UTF8.self) == nil { throw Failure(kind: .invalidUTF8) }
        try Record(bytes: bytes, offset: offset, isASCII: scan.isASCII, prefix: prefix).layout(&scan, into: &layout)
    }

    /// ASCII is checked eight bytes at a time; anything else by the standard library, which is rare enough to
    /// pay for.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// One record's bytes, read field by field (fields are separated by '|').
    private struct Record {
        let bytes: UnsafeRawBufferPointer
        let offset: Int
        let isASCII: Bool
        let prefix: RecordPrefix

        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// Compared byte by byte, inlined with the literal's length known: the fields are a few bytes long,
        /// shorter than a call to `memcmp` costs.
        @inline(__always)
        func field(_ range: Range<Int>, equals literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard range.count == count else { return false }
            let actual = bytes.baseAddress.unsafelyUnwrapped + range.lowerBound
            let expected = literal.utf8Start
            var index = 0
            while index < count {
                if actual.load(fromByteOffset: index, as: UInt8.self) != expected[index] { return false }
                index &+= 1
            }
            return true
        }

        func span(_ range: Range<Int>) -> RecordLayout.Span {
            RecordLayout.Span(start: UInt16(range.lowerBound), end: UInt16(range.upperBound))
        }

        /// `beehive:1`, the header of every record of this version, as one word and a byte.
        @inline(__always)
        func isCurrentHeader(_ range: Range<Int>) -> Bool {
            range.count == prefix.headerLength
                && UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)) == prefix.header
                && bytes[range.lowerBound + 8] == prefix.version
        }

        /// Why a header that is not `beehive:1` is refused.
        func checkHeader(_ header: Range<Int>) throws(Failure) {
            let prefix = header.lowerBound..<min(header.upperBound, header.lowerBound + 8)
            guard field(prefix, equals: "beehive:") else {
                throw .malformed("expected '\(versionPrefix)\(currentVersion)' at the start")
            }
            let version = prefix.upperBound..<header.upperBound
            guard field(version, equals: "1") else {
                if !version.isEmpty, bytes[version].allSatisfy(isDigit) { throw Failure(kind: .unknownVersion(string(header))) }
                throw .malformed("bad version '\(string(header))'")
            }
        }

        func layout(_ fields: inout RecordScan, into layout: inout RecordLayout) throws(Failure) {
            guard let header = fields.next(in: bytes) else { throw .malformed("empty record") }
            if !isCurrentHeader(header) { try checkHeader(header) }
            guard let kind = fields.next(in: bytes), let first = fields.next(in: bytes) else {
                throw .malformed("expected a kind and a name after '\(string(header))'")
            }
            layout = RecordLayout(offset: offset, start: offset, length: UInt16(bytes.count), kind: .module, name: span(first))
            if field(kind, equals: "module") {
                try checkTypeName(first, role: "module type")
                // Without attributes the layout's defaults stand: most records have none.
                if fields.hasMore(in: bytes) { try moduleAttributes(&fields, into: &layout) }
                return
            }
            if field(kind, equals: "service") {
                layout.kind = .service
                guard let type = fields.next(in: bytes) else { throw .malformed("a service record names a protocol and a type") }
                try checkTypeName(first, role: "service protocol")
                try checkTypeName(type, role: "service type")
                layout.type = span(type)
                if fields.hasMore(in: bytes) { try serviceAttributes(&fields, into: &layout) }
                return
            }
            if field(kind, equals: "route") {
                layout.kind = .route
                guard let type = fields.next(in: bytes) else { throw .malformed("a route record names a pattern and a type") }
                guard !first.isEmpty, bytes[first].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                    throw .malformed("route pattern '\(string(first))' is empty or contains spaces or control characters")
                }
                try checkTypeName(type, role: "route handler type")
                layout.type = span(type)
                if fields.hasMore(in: bytes) { try routeAttributes(&fields, into: &layout) }
                return
            }
            if field(kind, equals: "target") {
                layout.kind = .target
                guard let type = fields.next(in: bytes), fields.next(in: bytes) == nil else {
                    throw .malformed("a target record is 'target|<name>|<type>'")
                }
                guard isName(first) else { throw .malformed("bad target name '\(string(first))'") }
                try checkTypeName(type, role: "target type")
                layout.type = span(type)
                return
            }
            throw .malformed("unknown record kind '\(string(kind))' (module, service, route or target)")
        }

        func moduleAttributes(_ fields: inout RecordScan, into layout: inout RecordLayout) throws(Failure) {
            let values = try attributes(allowed: RecordParser.moduleAttributes, &fields)
            layout.level = try value(values[0], for: "level") { range -> ModuleLevel? in
                field(range, equals: "basic") ? .basic : field(range, equals: "normal") ? .normal : nil
            } ?? .normal
            layout.priority = try value(values[1], for: "priority", integer) ?? 0
            layout.isAsync = try value(values[2], for: "async") { range -> Bool? in
                field(range, equals: "1") ? true : field(range, equals: "0") ? false : nil
            } ?? false
            if let dependencies = values[3] {
                try checkDependencyList(dependencies)
                layout.type = span(dependencies)
            }
            layout.isOnDemand = try value(values[4], for: "ondemand") { range -> Bool? in
                field(range, equals: "1") ? true : field(range, equals: "0") ? false : nil
            } ?? false
        }

        func serviceAttributes(_ fields: inout RecordScan, into layout: inout RecordLayout) throws(Failure) {
            let values = try attributes(allowed: RecordParser.serviceAttributes, &fields)
            layout.scope = try value(values[0], for: "scope", scope) ?? .transient
            // An empty value is no name: its span is empty.
            layout.qualifier = try value(values[1], for: "name") { range -> RecordLayout.Span? in
                range.isEmpty || isName(range) ? span(range) : nil
            } ?? layout.qualifier
            if layout.scope == .named && layout.qualifier.isEmpty { throw .malformed("scope=named needs a non-empty name") }
        }

        func routeAttributes(_ fields: inout RecordScan, into layout: inout RecordLayout) throws(Failure) {
            let values = try attributes(allowed: RecordParser.routeAttributes, &fields)
            // An empty value is no scheme: its span is empty.
            layout.qualifier = try value(values[0], for: "scheme") { range -> RecordLayout.Span? in
                range.isEmpty || isScheme(range) ? span(range) : nil
            } ?? layout.qualifier
            layout.priority = try value(values[1], for: "priority", integer) ?? 0
        }

        /// The remaining `key=value` fields: each key at most once, and only the allowed keys (at most
        /// `AttributeValues.capacity`), returned in the order of `allowed`.
        func attributes(allowed: [StaticString], _ fields: inout RecordScan) throws(Failure) -> AttributeValues {
            var values = AttributeValues()
            while let range = fields.next(in: bytes) {
                guard let equals = bytes[range].firstIndex(of: UInt8(ascii: "=")) else {
                    throw .malformed("expected key=value, found '\(string(range))'")
                }
                let key = range.lowerBound..<equals
                guard let slot = allowed.firstIndex(where: { field(key, equals: $0) }) else {
                    let names = allowed.map { "\($0)" }.sorted().joined(separator: ", ")
                    throw .malformed("unknown attribute '\(string(key))' (allowed: \(names))")
                }
                if values[slot] != nil { throw .malformed("attribute '\(string(key))' given twice") }
                values[slot] = (equals + 1)..<range.upperBound
            }
            return values
        }

        func value<T>(_ range: Range<Int>?, for key: String, _ convert: (Range<Int>) -> T?) throws(Failure) -> T? {
            guard let range else { return nil }
            guard let value = convert(range) else { throw .malformed("bad value '\(string(range))' for \(key)") }
            return value
        }

        func scope(_ range: Range<Int>) -> ServiceScope? {
            if field(range, equals: "transient") { return .transient }
            if field(range, equals: "singleton") { return .singleton }
            if field(range, equals: "named") { return .named }
            if field(range, equals: "weak") { return .weak }
            return nil
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

        /// `depends=Shop.Network,Shop.Account`: one or more module type names separated by ','.
        func checkDependencyList(_ range: Range<Int>) throws(Failure) {
            var start = range.lowerBound
            for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == UInt8(ascii: ",") {
                try checkTypeName(start..<index, role: "module dependency")
                start = index + 1
            }
        }

        /// `Module.Type`, `Module.Outer.Inner`, or a mangled name such as `4Demo4ImplV`.
        func checkTypeName(_ range: Range<Int>, role: String) throws(Failure) {
            guard isTypeName(range) else { throw .malformed("bad \(role) name '\(string(range))'") }
        }

        private func isTypeName(_ range: Range<Int>) -> Bool {
            guard !range.isEmpty else { return false }
            if isASCII { return RecordParser.isASCIITypeName(bytes, range) }
            return string(range).split(separator: ".", omittingEmptySubsequences: false).allSatisfy { component in
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

    /// The length (without its NUL) of the record at `start` when it is `beehive:1|module|<type name>`, a module
    /// record without attributes (what `BeeHiveMod` writes, nearly every record), all ASCII, valid and at most
    /// `maximumRecordLength` long; nil for any other record, which the general parser then reads and explains.
    /// `prefix` is `RecordPrefix.current`; the name starts at `prefix.module.length`.
    ///
    /// The name is checked in the same pass that finds its NUL, eight bytes at a time: finding the end first and
    /// checking the name after read each byte twice, and the general parser's per-field work cost more than both.
    @inline(__always)
    static func bareModuleRecordLength(_ base: UnsafeRawPointer, at start: Int, count: Int, prefix: RecordPrefix) -> Int? {
        let module = prefix.module
        // The header's and the kind's words, then the '|' before the name, and a name that does not start with a dot.
        guard start + module.length < count, start + RecordPrefix.coveredLength <= count,
            UInt64(littleEndian: (base + start).loadUnaligned(as: UInt64.self)) == prefix.header,
            UInt64(littleEndian: (base + start + 8).loadUnaligned(as: UInt64.self)) == module.word,
            module.length(following: UInt16(littleEndian: (base + start + 16).loadUnaligned(as: UInt16.self))) != 0,
            base.load(fromByteOffset: start + module.length, as: UInt8.self) != UInt8(ascii: ".")
        else { return nil }
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = start + module.length
        var previousDots: UInt64 = 0
        while index < count && index - start <= maximumRecordLength {
            // The section's last bytes are its last word moved down: the bytes shifted in read as NULs past the
            // end, which the length check below refuses, so the section's last record needs no slower path.
            let word = index + 8 <= count
                ? UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self))
                : UInt64(littleEndian: (base + count - 8).loadUnaligned(as: UInt64.self)) >> UInt64(8 * (index + 8 - count))
            let nuls = ByteMask.equal(word, 0)
            // Bytes from the NUL on are not the record's. A byte above 0x7F fails the record here; the sums of
            // `typeNameBytes` may then carry into later bytes, but the record is refused whatever they say.
            // Ones below the first NUL's high bit, all ones when there is none.
            let kept = (nuls & (0 &- nuls)) &- 1
            // Not a type-name byte (a '|' starts attributes), a dot right after a dot, or not ASCII.
            let (faults, dots) = typeNameFaults(word, kept: kept, previousDots: previousDots)
            guard faults | (word & high & kept) == 0 else { return nil }
            guard nuls != 0 else {
                previousDots = dots
                index += 8
                continue
            }
            let length = index - start + nuls.trailingZeroBitCount / 8
            // Not empty, not ending with a dot, and not too long.
            guard length > module.length, length <= maximumRecordLength, start + length < count,
                base.load(fromByteOffset: start + length - 1, as: UInt8.self) != UInt8(ascii: ".")
            else { return nil }
            return length
        }
        return nil
    }

    /// Whether the ASCII bytes of a non-empty `range` form a type name: letters, digits, '_', '$' and '.', with
    /// no empty component. Eight bytes at a time (SWAR): a byte at a time was a quarter of the parse.
    @inline(__always)
    static func isASCIITypeName(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        let base = bytes.baseAddress.unsafelyUnwrapped
        let dot = UInt8(ascii: ".")
        if base.load(fromByteOffset: range.lowerBound, as: UInt8.self) == dot
            || base.load(fromByteOffset: range.upperBound - 1, as: UInt8.self) == dot
        {
            return false
        }
        var bad: UInt64 = 0
        var previousDots: UInt64 = 0
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let (faults, dots) = typeNameFaults(word, kept: ~0, previousDots: previousDots)
            bad |= faults
            previousDots = dots
            index += 8
        }
        if index < range.upperBound {
            // The last eight bytes of the range, or of the record when the range is shorter: bytes before the
            // range (at most seven) are masked out; bytes before `index` inside the range are checked again, so
            // the word also holds the pair across from the previous one.
            guard range.upperBound >= 8 else { return isASCIITypeNameBytewise(bytes, range) }
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self))
            let outside = max(0, range.lowerBound - (range.upperBound - 8))
            let inside: UInt64 = ~0 << UInt64(8 * outside)
            bad |= typeNameFaults(word, kept: inside, previousDots: 0).faults
        }
        return bad == 0
    }

    /// The high bit of each byte of an all-ASCII `word` among the `kept` ones that cannot stand there in a type
    /// name: a byte no type name holds, or a dot right after a dot, within the word or across from the last byte
    /// of the word before (whose dots are `previousDots`); and the word's dots, for the next word.
    @inline(__always)
    private static func typeNameFaults(_ word: UInt64, kept: UInt64, previousDots: UInt64) -> (faults: UInt64, dots: UInt64) {
        let (invalid, dots) = typeNameBytes(word)
        let keptDots = dots & kept
        return ((invalid | (keptDots & ((keptDots << 8) | (previousDots >> 56)))) & kept, dots)
    }

    /// The high bit of each byte of an all-ASCII `word` that no type name may hold, and of each dot.
    @inline(__always)
    private static func typeNameBytes(_ word: UInt64) -> (invalid: UInt64, dots: UInt64) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // Each byte is below 0x80, so no sum below carries into the next byte; bit 7 of a byte of
        // `byte + (0x80 - low)` is set when byte >= low, and of `byte + (0x7F - high)` when byte > high.
        func within(_ word: UInt64, _ low: UInt8, _ top: UInt8) -> UInt64 {
            (word &+ ones &* UInt64(0x80 - low)) & ~(word &+ ones &* UInt64(0x7F - top)) & high
        }
        let letters = within(word | (ones &* 0x20), UInt8(ascii: "a"), UInt8(ascii: "z"))
        let digits = within(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
        let dots = ByteMask.equal(word, UInt8(ascii: "."))
        let valid = letters | digits | dots | ByteMask.equal(word, UInt8(ascii: "_")) | ByteMask.equal(word, UInt8(ascii: "$"))
        return (~valid & high, dots)
    }

    /// The same check a byte at a time, for a range that ends within the first eight bytes of its record.
    private static func isASCIITypeNameBytewise(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        var previousWasDot = true
        for index in range {
            let byte = bytes[index]
            let isDot = byte == UInt8(ascii: ".")
            let allowed = isLetter(byte) || isDigit(byte) || isDot || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            if !allowed || (isDot && previousWasDot) { return false }
            previousWasDot = isDot
        }
        return !previousWasDot
    }

    /// The values of a record's attributes, by their index in the allowed list; fixed storage, no allocation.
    struct AttributeValues {
        static let capacity = 5
        private var slots: (Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?) = (nil, nil, nil, nil, nil)

        subscript(index: Int) -> Range<Int>? {
            get {
                switch index {
                case 0: slots.0
                case 1: slots.1
                case 2: slots.2
                case 3: slots.3
                case 4: slots.4
                default: preconditionFailure("more attributes than AttributeValues.capacity")
                }
            }
            set {
                switch index {
                case 0: slots.0 = newValue
                case 1: slots.1 = newValue
                case 2: slots.2 = newValue
                case 3: slots.3 = newValue
                case 4: slots.4 = newValue
                default: preconditionFailure("more attributes than AttributeValues.capacity")
                }
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
