@_spi(BeeHiveInternals) import BeeHiveRegistry
#if canImport(Glibc)
import Glibc
#endif

// Reads each file named on standard input (one path a line) with SectionReader.readFile(atPath:), the offline
// path `beehive inspect` takes, and prints one JSON line per file as soon as it is read, so that after a crash
// the first path without a line is the one that crashed. Used by scripts/inspect-system.

func json(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\t": escaped += "\\t"
        case "\r": escaped += "\\r"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped + "\""
}

/// The case name of a diagnostic kind, without its associated values.
func kindName(_ kind: RegistryDiagnostic.Kind) -> String {
    let described = String(describing: kind)
    return String(described.prefix { $0 != "(" })
}

while let path = readLine(strippingNewline: true) {
    guard !path.isEmpty else { continue }
    let result = SectionReader.readFile(atPath: path)
    let diagnostics = result.diagnostics.map { diagnostic in
        "{\"kind\":\(json(kindName(diagnostic.kind))),\"section\":\(diagnostic.section.map(json) ?? "null"),"
            + "\"message\":\(json(diagnostic.message))}"
    }
    writeLine("{\"file\":\(json(path)),\"annotated\":\(result.isAnnotated),\"records\":\(result.records.count),"
        + "\"diagnostics\":[\(diagnostics.joined(separator: ","))]}")
}

/// Writes straight to the file descriptor, unbuffered, so that nothing read is lost if the next file crashes.
func writeLine(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { exit(1) }
        bytes = bytes.dropFirst(written)
    }
}
