import BeeHiveLint
@_spi(BeeHiveInternals) import BeeHiveRegistry
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// lint's own readers: the ELF file for symbols and Swift type metadata, link inputs (objects and archives), and
// the mangled-name reader. The readers take paths, so each input is written to one scratch file per process.
let scratch = "/tmp/beehive-lint-fuzz-\(getpid())"
atexit { unlink(scratch) }
exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

/// One input, read as a linked file, as a link input, and as a mangled type name. Besides crashes and
/// sanitizer reports, every finding must name its file.
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

    let report = Linter.lint(files: [scratch], inputs: [scratch])
    for finding in report.findings {
        if !finding.objectPath.hasPrefix(scratch) { fatalError("finding names another file: \(finding)") }
        _ = finding.description
    }
    _ = HiveGraph(files: [scratch]).dot
    _ = InspectionReport(files: [scratch]).table

    let text = String(decoding: UnsafeBufferPointer(start: size > 0 ? data : nil, count: size), as: UTF8.self)
    if let path = SwiftMangledName.type(text), path.components.isEmpty { fatalError("type without components: \(text)") }
    _ = SwiftMangledName.descriptorType(ofSymbol: "$s" + text + "Mn")
    return 0
}
