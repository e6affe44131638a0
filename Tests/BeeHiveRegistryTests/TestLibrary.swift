@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc

/// Compiles a C source that uses the annotation macros into a small shared library, for tests that read or
/// corrupt real ELF files.
enum TestLibrary {
    static let includeDirectory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "CSectionShim/include")

    /// The library's bytes. `compiler` is looked up on PATH; no C library is linked, so the file holds little
    /// more than the annotations.
    static func build(_ source: String, compiler: String = "clang", flags: [String] = []) throws(ELFImage.Failure) -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sourceFile = directory.appending(path: "annotated.c")
        let library = directory.appending(path: "libannotated.so")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try source.write(to: sourceFile, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(filePath: "/usr/bin/env")
            process.arguments = [compiler, "-shared", "-fPIC", "-nostdlib", "-Wl,--build-id", "-I", includeDirectory.path]
                + flags + ["-o", library.path, sourceFile.path]
            // Kept in the failure rather than printed: tests that expect a source not to compile would fill the
            // suite's log with errors.
            let messagesFile = directory.appending(path: "compiler.log")
            // A file that could not be made fails the next line, with the reason.
            _ = FileManager.default.createFile(atPath: messagesFile.path, contents: nil)
            let messages = try FileHandle(forWritingTo: messagesFile)
            process.standardError = messages
            try process.run()
            process.waitUntilExit()
            try messages.close()
            guard process.terminationStatus == 0 else {
                let output = String(decoding: (try? Data(contentsOf: messagesFile)) ?? Data(), as: UTF8.self)
                throw ELFImage.Failure(
                    description: "\(compiler) could not build the test library (status \(process.terminationStatus)); is \(compiler) on PATH?\n\(output)")
            }
            return try Array(Data(contentsOf: library))
        } catch let failure as ELFImage.Failure {
            throw failure
        } catch {
            throw ELFImage.Failure(description: "cannot build the test library with \(compiler): \(error)")
        }
    }

    /// Writes `bytes` to a new file in `directory`, reads its annotations offline and removes it.
    static func readAnnotations(of bytes: [UInt8], in directory: URL) throws(ELFImage.Failure) -> (ObjectAnnotations, path: String) {
        // A new file each time: ext4 flushes a file truncated and rewritten in place when it is closed.
        let file = directory.appending(path: "library-\(UUID().uuidString).so")
        try write(bytes, to: file)
        defer { unlink(file.path) }
        return (SectionReader.readFile(atPath: file.path), file.path)
    }

    static func temporaryDirectory() throws(ELFImage.Failure) -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "beehive-elf-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ELFImage.Failure(description: "cannot create \(directory.path): \(error)")
        }
        return directory
    }

    /// A plain write: Foundation's `Data.write(to:)` syncs to disk, which makes a thousand reads take seconds.
    static func write(_ bytes: [UInt8], to file: URL) throws(ELFImage.Failure) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ELFImage.Failure(description: "cannot create \(file.path): errno \(errno)") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw ELFImage.Failure(description: "cannot write \(file.path): errno \(errno)") }
    }
}
