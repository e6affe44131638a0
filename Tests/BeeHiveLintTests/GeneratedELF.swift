import Foundation
import Glibc

/// A small shared library compiled from C on the fly, with helpers to damage its section headers on purpose.
struct GeneratedELF {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Field offsets in an ELF64 section header.
    enum SectionField: Int {
        case name = 0x00, type = 0x04, flags = 0x08, address = 0x10, offset = 0x18, size = 0x20, link = 0x28
    }

    static let includeDirectory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "CSectionShim/include")

    var bytes: [UInt8]

    /// Builds `source` with clang into a library without the C library.
    init(source: String) throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-lint-lib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sourceFile = directory.appending(path: "generated.c")
        let library = directory.appending(path: "libgenerated.so")
        try source.write(to: sourceFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [
            "clang", "-shared", "-fPIC", "-nostdlib", "-I", Self.includeDirectory.path, "-o", library.path, sourceFile.path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "clang failed (\(process.terminationStatus))") }
        bytes = try Array(Data(contentsOf: library))
    }

    func read(at offset: Int, width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { value, index in value | UInt64(bytes[offset + index]) << (8 * index) }
    }

    mutating func write(_ value: UInt64, at offset: Int, width: Int) {
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    static let sectionNameTableIndexOffset = 0x3E

    private func headerOffset(_ index: Int) -> Int { Int(read(at: 0x28, width: 8)) + index * Int(read(at: 0x3A, width: 2)) }

    private static func width(_ field: SectionField) -> Int { field == .name || field == .type || field == .link ? 4 : 8 }

    mutating func setSection(_ index: Int, _ field: SectionField, to value: UInt64) {
        write(value, at: headerOffset(index) + field.rawValue, width: Self.width(field))
    }

    func section(_ index: Int, _ field: SectionField) -> UInt64 {
        read(at: headerOffset(index) + field.rawValue, width: Self.width(field))
    }

    func sectionIndex(named name: String) throws -> Int {
        let names = Int(section(Int(read(at: Self.sectionNameTableIndexOffset, width: 2)), .offset))
        for index in 0..<Int(read(at: 0x3C, width: 2)) {
            let start = names + Int(section(index, .name))
            guard let end = bytes[start...].firstIndex(of: 0) else { continue }
            if String(decoding: bytes[start..<end], as: UTF8.self) == name { return index }
        }
        throw Failure(description: "no section \(name)")
    }

    /// Writes the bytes to a new file and returns its path; the caller removes it.
    func write() throws -> String {
        let path = FileManager.default.temporaryDirectory.appending(path: "beehive-lint-\(UUID().uuidString).so").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Failure(description: "cannot write \(path)")
        }
        return path
    }
}
