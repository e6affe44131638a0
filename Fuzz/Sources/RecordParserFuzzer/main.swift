@_spi(BeeHiveInternals) import BeeHiveRegistry
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

/// One fuzz input: the content of an annotation section, parsed as each of the three sections in turn. Besides
/// crashes and sanitizer reports, it checks what the parser promises; a broken promise traps, which libFuzzer
/// reports like a crash.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
    for section in ["beehive_mods", "beehive_services", "beehive_routes"] {
        let parsed = RecordParser.records(inSection: section, bytes: bytes, objectPath: "fuzz-input")
        checkEveryChunkAccountedFor(parsed, bytes)
        for record in parsed.records { checkRecord(record, in: section, bytes) }
        for diagnostic in parsed.diagnostics {
            require(diagnostic.section == section && diagnostic.objectPath == "fuzz-input", "diagnostic names its place: \(diagnostic)")
            require(!diagnostic.description.isEmpty, "diagnostic has a description")
        }
    }
    return 0
}

/// Every run of non-NUL bytes is one record or one diagnostic: nothing is dropped silently, nothing counted twice.
private func checkEveryChunkAccountedFor(
    _ parsed: (records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]), _ bytes: UnsafeBufferPointer<UInt8>
) {
    let chunks = bytes.split(separator: 0, omittingEmptySubsequences: true).count
    require(parsed.records.count + parsed.diagnostics.count == chunks,
            "\(chunks) chunks gave \(parsed.records.count) records and \(parsed.diagnostics.count) diagnostics")
}

/// A record points at its own NUL-terminated bytes, belongs in its section, and parses again to itself.
private func checkRecord(_ record: AnnotationRecord, in section: String, _ bytes: UnsafeBufferPointer<UInt8>) {
    let text = Array(record.text.utf8)
    let offset = record.origin.offset
    require(record.origin.section == section && record.kind.section == section, "record in the wrong section: \(record)")
    require(offset >= 0 && offset + text.count < bytes.count, "record offset \(offset) outside the section")
    require(bytes[offset..<(offset + text.count)].elementsEqual(text) && bytes[offset + text.count] == 0,
            "record text differs from its bytes at offset \(offset)")
    require(offset == 0 || bytes[offset - 1] == 0, "record at offset \(offset) does not start after a NUL")
    switch RecordParser.parse(bytes: text, origin: record.origin) {
    case .success(let again): require(again == record, "record parses differently the second time: \(record)")
    case .failure(let diagnostic): require(false, "record fails to parse the second time: \(diagnostic)")
    }
    do {
        require(try RecordParser.payload(of: record.text) == record.payload, "payload(of:) disagrees: \(record)")
    } catch {
        require(false, "payload(of:) rejects a parsed record: \(error)")
    }
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("record parser invariant broken: \(message())") }
}
