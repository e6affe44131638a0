/// The rules the record parser (BeeHiveRegistry's RecordParser) applies to field values, checked at compile
/// time so that a record the macros write is never rejected at run time.
enum RecordField {
    /// Route patterns: no spaces or control characters, and no '|' (the field separator).
    static func isRoutePattern(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "|" }
    }

    static func isScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isASCIILetter(first) else { return false }
        return text.unicodeScalars.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// Service and target names.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) || "_-.".unicodeScalars.contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
