import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// The Swift face of the C walk: turns the shim's raw sections into records and diagnostics.
public enum SectionReader {
    /// Reads the annotations of a file on disk, without loading it.
    @_spi(BeeHiveInternals)
    public static func readFile(atPath path: String) -> ObjectAnnotations {
        guard let object = bh_read_file(path) else {
            let object = LoadedObject(id: 0, path: path, buildID: nil, baseAddress: 0)
            return ObjectAnnotations(
                object: object, isAnnotated: false, records: [],
                diagnostics: [RegistryDiagnostic(.unreadableObject(reason: "out of memory"), objectPath: path)])
        }
        defer { bh_object_release(object) }
        return annotations(of: object)
    }

    /// False when `BEEHIVE_DISCOVERY=0` turned discovery off for this process.
    public static var isDiscoveryEnabled: Bool { bh_discovery_enabled() != 0 }

    static func loadedObject(_ object: bh_object) -> LoadedObject {
        let buildID = withUnsafeBytes(of: object.build_id) { bytes in hex(bytes.prefix(object.build_id_size)) }
        return LoadedObject(
            id: object.id, path: String(cString: object.path), buildID: buildID.isEmpty ? nil : buildID,
            baseAddress: UInt(object.base))
    }

    /// Lowercase hex in one allocation: a string per byte, joined, was a microsecond per object.
    private static func hex(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits.utf8Start[Int(byte >> 4)]
                output[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    /// The object's records point into the shim's copy of its sections, which they keep alive.
    static func annotations(of pointer: UnsafeMutablePointer<bh_object>) -> ObjectAnnotations {
        let object = pointer.pointee
        let loaded = loadedObject(object)
        let path = loaded.path
        var diagnostics: [RegistryDiagnostic] = []
        if let problem = objectProblem(object) {
            diagnostics.append(RegistryDiagnostic(problem, objectPath: path))
        }
        var sections: [SectionBytes] = []
        sections.reserveCapacity(object.section_count)
        var recordCount = 0
        for index in 0..<object.section_count {
            let section = object.sections[index]
            let name = sectionName(section.name)
            switch bh_section_status(UInt32(section.status)) {
            case BH_SECTION_OK where name == SectionName.types:
                continue  // not records: TypeReferences reads it
            case BH_SECTION_OK:
                let bytes = SectionBytes(section: index, of: pointer, name: name, objectPath: path)
                recordCount += RecordParser.estimatedRecordCount(in: bytes)
                sections.append(bytes)
            case BH_SECTION_OUTSIDE_SEGMENT:
                diagnostics.append(RegistryDiagnostic(.sectionOutsideSegment, objectPath: path, section: name))
            case BH_SECTION_TOO_LARGE:
                diagnostics.append(RegistryDiagnostic(.sectionTooLarge(size: section.size), objectPath: path, section: name))
            default:
                diagnostics.append(RegistryDiagnostic(.sectionUnreadable, objectPath: path, section: name))
            }
        }
        var layouts: [RecordLayout] = []
        layouts.reserveCapacity(recordCount)
        for (index, bytes) in sections.enumerated() {
            RecordParser.parse(bytes, index: UInt8(index), into: &layouts, &diagnostics)
        }
        return ObjectAnnotations(
            object: loaded, isAnnotated: object.annotated != 0, records: AnnotationRecords(sections: sections, layouts: layouts),
            diagnostics: diagnostics)
    }

    /// The registry's own string for a section name the shim reports, so that no record makes one. Compared
    /// as bytes: passing a Swift string to `strcmp` made a C copy of it, an allocation per comparison.
    private static func sectionName(_ name: UnsafePointer<CChar>?) -> String {
        guard let name else { return "" }
        let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
        for var known in SectionName.all {
            let same = known.withUTF8 { $0.count == bytes.count && memcmp($0.baseAddress!, name, bytes.count) == 0 }
            if same { return known }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func objectProblem(_ object: bh_object) -> RegistryDiagnostic.Kind? {
        switch bh_object_status(UInt32(object.status)) {
        case BH_OBJECT_READ: return nil
        case BH_OBJECT_UNREADABLE:
            let reason = object.detail.map { String(cString: $0) }
                ?? (object.sys_errno != 0 ? String(cString: strerror(object.sys_errno)) : "unknown error")
            return .unreadableObject(reason: reason)
        case BH_OBJECT_NOT_ELF: return .notELF
        case BH_OBJECT_NOT_REGULAR_FILE: return .notRegularFile(fileKind: object.detail.map { String(cString: $0) } ?? "not a regular file")
        case BH_OBJECT_MALFORMED: return .malformedObject(reason: object.detail.map { String(cString: $0) } ?? "unknown damage")
        case BH_OBJECT_NO_SECTION_HEADERS: return .sectionHeadersMissing
        case BH_OBJECT_BUILD_ID_MISMATCH: return .buildIDMismatch
        case BH_OBJECT_PROGRAM_HEADERS_MISMATCH: return .programHeadersMismatch
        default: return .contentMismatch
        }
    }
}
