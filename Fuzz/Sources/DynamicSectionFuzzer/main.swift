import BeeHiveLint
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// The dynamic-section reader behind `swift package beehive-bundle`, which rewrites the RUNPATH it locates in
// place: besides crashes and sanitizer reports, a located search path must be the file's bytes at its offset,
// NUL-terminated. The reader takes a path, so each input is written to one scratch file per process.
let scratch = "/tmp/beehive-dynamic-fuzz-\(getpid())"
atexit { unlink(scratch) }
exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let descriptor = open(scratch, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(scratch)") }
    var written = 0
    while written < size {
        let count = write(descriptor, data! + written, size - written)
        guard count > 0 else { fatalError("cannot write \(scratch)") }
        written += count
    }
    close(descriptor)

    guard let dynamic = try? DynamicSection(path: scratch) else { return 0 }
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    for searchPath in [dynamic.runpath, dynamic.rpath].compactMap({ $0 }) {
        guard searchPath.fileOffset <= UInt64(size), UInt64(searchPath.byteCount) < UInt64(size) - searchPath.fileOffset else {
            fatalError("search path '\(searchPath.value)' at \(searchPath.fileOffset) lies past the end of a \(size)-byte file")
        }
        let start = Int(searchPath.fileOffset)
        let end = start + searchPath.byteCount
        guard bytes[end] == 0, !bytes[start..<end].contains(0),
            String(decoding: bytes[start..<end], as: UTF8.self) == searchPath.value
        else { fatalError("search path '\(searchPath.value)' is not the file's NUL-terminated bytes at \(start)") }
    }
    return 0
}
