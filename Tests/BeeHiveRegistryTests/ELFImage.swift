import Foundation

/// The bytes of a 64-bit little-endian ELF file, with just enough structure to corrupt it on purpose: header
/// fields, section headers found by name, program headers.
struct ELFImage {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Field offsets in the ELF64 file header.
    enum Header {
        static let programHeaderOffset = 0x20
        static let sectionHeaderOffset = 0x28
        static let programHeaderCount = 0x38
        static let sectionHeaderSize = 0x3A
        static let sectionHeaderCount = 0x3C
        static let sectionNameTableIndex = 0x3E
    }

    /// Field offsets in an ELF64 section header.
    enum SectionField: Int {
        case name = 0x00, type = 0x04, flags = 0x08, address = 0x10, offset = 0x18, size = 0x20
    }

    /// Field offsets in an ELF64 program header.
    enum SegmentField: Int {
        case type = 0x00, flags = 0x04, offset = 0x08, address = 0x10, fileSize = 0x20, memorySize = 0x28
    }

    static let loadSegmentType: UInt64 = 1
    static let noBitsSectionType: UInt64 = 8

    var bytes: [UInt8]

    init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count >= 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
            throw Failure(description: "not a 64-bit little-endian ELF file")
        }
        self.bytes = bytes
    }

    func read(at offset: Int, width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { value, index in value | UInt64(bytes[offset + index]) << (8 * index) }
    }

    mutating func write(_ value: UInt64, at offset: Int, width: Int) {
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private static func width(_ field: SectionField) -> Int { field == .name || field == .type ? 4 : 8 }
    private static func width(_ field: SegmentField) -> Int { field == .type || field == .flags ? 4 : 8 }

    var sectionCount: Int { Int(read(at: Header.sectionHeaderCount, width: 2)) }

    func sectionHeaderOffset(_ index: Int) -> Int {
        Int(read(at: Header.sectionHeaderOffset, width: 8)) + index * Int(read(at: Header.sectionHeaderSize, width: 2))
    }

    func section(_ index: Int, _ field: SectionField) -> UInt64 {
        read(at: sectionHeaderOffset(index) + field.rawValue, width: Self.width(field))
    }

    mutating func setSection(_ index: Int, _ field: SectionField, to value: UInt64) {
        write(value, at: sectionHeaderOffset(index) + field.rawValue, width: Self.width(field))
    }

    /// The index of the section called `name`.
    func sectionIndex(named name: String) throws(Failure) -> Int {
        let names = Int(section(Int(read(at: Header.sectionNameTableIndex, width: 2)), .offset))
        for index in 0..<sectionCount {
            let start = names + Int(section(index, .name))
            guard let end = bytes[start...].firstIndex(of: 0) else { continue }
            if String(decoding: bytes[start..<end], as: UTF8.self) == name { return index }
        }
        throw Failure(description: "no section \(name)")
    }

    var segmentCount: Int { Int(read(at: Header.programHeaderCount, width: 2)) }

    private func segmentHeaderOffset(_ index: Int) -> Int {
        Int(read(at: Header.programHeaderOffset, width: 8)) + index * 56
    }

    func segment(_ index: Int, _ field: SegmentField) -> UInt64 {
        read(at: segmentHeaderOffset(index) + field.rawValue, width: Self.width(field))
    }

    mutating func setSegment(_ index: Int, _ field: SegmentField, to value: UInt64) {
        write(value, at: segmentHeaderOffset(index) + field.rawValue, width: Self.width(field))
    }

    /// The loadable segment that maps the section at `index`.
    func loadSegment(holdingSection index: Int) throws(Failure) -> Int {
        let address = section(index, .address)
        for segment in 0..<segmentCount where self.segment(segment, .type) == Self.loadSegmentType {
            let start = self.segment(segment, .address)
            if address >= start && address - start < self.segment(segment, .fileSize) { return segment }
        }
        throw Failure(description: "no loadable segment holds section \(index)")
    }
}
