@_spi(BeeHiveInternals) import BeeHiveRegistry

/// Names of service types, as annotations and configuration files spell them (`App.HomeService`), and the way
/// back from such a name to the type.
enum ServiceTypeName {
    /// The name a type is registered under: its qualified runtime name, `App.HomeService` for
    /// `HomeService.self` and `(any HomeService).self` alike, as `String(reflecting:)` prints it. Not
    /// `String(reflecting:)` itself: to print a metatype it first asks whether the value customises its
    /// description, a conformance check that scans every conformance record of the process for each new type
    /// (tens of microseconds per registration). A leading `any ` (printed by some toolchains for existentials)
    /// is dropped so both spellings meet.
    static func of(_ type: Any.Type) -> String {
        normalized(_typeName(type, qualified: true))
    }

    static func normalized(_ name: String) -> String {
        // Most names need nothing, which bytes tell faster than `Character.isWhitespace`: it showed in profiles.
        // Read in place: the UTF-8 view's `first`, `last` and `starts(with:)` took twice the instructions.
        let needsNothing = name.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return (0x21..<0x80).contains(first) && (0x21..<0x80).contains(last) && !bytes.starts(with: "any ".utf8)
        }
        if needsNothing == true { return name }
        var name = Substring(name)
        while name.first?.isWhitespace == true { name.removeFirst() }
        while name.last?.isWhitespace == true { name.removeLast() }
        if name.hasPrefix("any ") { name = name.dropFirst(4) }
        return String(name)
    }

    /// The type named `name`: a protocol from the process's protocol index or by the mangled names its dotted
    /// name can stand for, else a top-level type by its dotted name. nil when nothing matches (protocol
    /// compositions, generic or local types).
    ///
    /// Protocols first, because services are mostly named by protocol and the dotted lookup of a protocol's name
    /// fails only after scanning every type and conformance record of the process (tens of microseconds),
    /// where the mangled protocol lookup reads only the protocol records, and the index (built once) none.
    static func type(named name: String) -> Any.Type? {
        if let existential = ProtocolIndex.existential(named: name) { return existential }
        let components = name.split(separator: ".", omittingEmptySubsequences: false)
        // A module and a protocol, with at most two enclosing types, whose kinds are not in the name.
        if (2...4).contains(components.count), components.allSatisfy(isPlainIdentifier) {
            let module = components[0] == "Swift" ? "s" : mangled(components[0])
            let protocolPart = mangled(components[components.count - 1]) + "P_p"
            var contexts = [module]
            for component in components.dropFirst().dropLast() {
                contexts = contexts.flatMap { prefix in ["V", "C", "O"].map { prefix + mangled(component) + $0 } }
            }
            for context in contexts {
                if let type = TypeResolver.type(named: context + protocolPart) { return type }
            }
        }
        return TypeResolver.type(named: name)
    }

    /// Whether `value` is an instance of `type`, which may be a protocol's existential type.
    static func isInstance(_ value: Any, of type: Any.Type) -> Bool {
        func check<Target>(_: Target.Type) -> Bool { value is Target }
        return check(type)
    }

    private static func mangled(_ identifier: Substring) -> String {
        "\(identifier.utf8.count)\(identifier)"
    }

    private static func isPlainIdentifier(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
