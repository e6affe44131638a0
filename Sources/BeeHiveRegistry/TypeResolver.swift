/// Resolves annotated names to Swift types.
///
/// `Module.Type` resolves top-level classes only: that is what the runtime's demangler accepts in dotted form.
/// Structs, enums and nested types need their mangled name (such as `4Demo4ImplV`), which the Swift macros
/// write for you.
///
/// `resolve(_:as:origin:)` tries, in order: the compile-time reference a Swift macro wrote (`TypeReferences`, no
/// lookup at all), the process's conformances to the protocol, indexed in one pass (`ConformanceIndex`), and
/// the runtime's name lookup and cast, which scan every type and conformance record for each name.
/// `BEEHIVE_CONFORMANCE_INDEX=0` skips the index: every name then takes the lookup and cast, with the same answer.
@_spi(BeeHiveInternals)
public enum TypeResolver {
    /// The type named `name`, or nil. Any string is safe to pass: names the runtime would misread are refused
    /// before it sees them.
    public static func type(named name: String) -> Any.Type? {
        isSafeToLookUp(name) ? _typeByName(name) : nil
    }

    /// Whether the runtime's lookup can be given `name`. It dereferences garbage for a name that starts with `$`
    /// (`$`, `$0`, `$Xp` crash Swift 6.3's `_typeByName`); no type name starts that way, nor holds a control
    /// character, which in a mangled name would stand for a pointer.
    static func isSafeToLookUp(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "$") else { return false }
        return !name.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// The type, or the diagnostic that names the record and object it came from.
    ///
    /// Inlinable, so that a type a Swift macro wrote a reference for resolves in code specialized for `T`.
    @inlinable
    public static func resolve<T>(
        _ name: String, as expected: T.Type, origin: RecordOrigin? = nil
    ) -> Result<T, RegistryDiagnostic> {
        if let referenced = TypeReferences.resolve(name, as: expected) { return .success(referenced) }
        return resolveUnreferenced(name, as: expected, origin: origin)
    }

    /// `resolve` for a name that no Swift macro wrote a reference for.
    @usableFromInline
    static func resolveUnreferenced<T>(
        _ name: String, as expected: T.Type, origin: RecordOrigin?
    ) -> Result<T, RegistryDiagnostic> {
        if let indexed = ConformanceIndex.resolve(name, as: expected) { return .success(indexed) }
        guard let type = type(named: name) else {
            return .failure(RegistryDiagnostic(.unresolvedType(name: name), objectPath: origin?.objectPath, section: origin?.section))
        }
        guard let typed = type as? T else {
            return .failure(
                RegistryDiagnostic(
                    .nonConformingType(name: name, expected: String(describing: expected)), objectPath: origin?.objectPath,
                    section: origin?.section))
        }
        return .success(typed)
    }
}
