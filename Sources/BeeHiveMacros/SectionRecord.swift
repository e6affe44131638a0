import SwiftSyntax
import SwiftSyntaxMacros

/// One annotation record, stored the way the C macros store it: the record's bytes and a terminating NUL in an
/// ELF section, next to the note that tells discovery this object is annotated.
///
/// Swift places a global in a section only if its value is a compile-time constant, and strings are not, so
/// both are tuples of integer literals. `@used` marks them SHF_GNU_RETAIN, so `--gc-sections` keeps them.
struct SectionRecord {
    static let modules = "beehive_mods"
    static let services = "beehive_services"
    static let routes = "beehive_routes"
    static let version = "beehive:1"
    /// The note that marks an annotated object (version 1: no offsets; the C target CBeeHiveAnnotationNote,
    /// linked with the macros, adds the version 2 note whose offsets locate the sections in memory).
    static let noteName = "BeeHive"
    static let noteType: UInt32 = 0x4248_0001
    static let noteVersion: UInt32 = 1

    let section: String
    let text: String

    /// The record, the note and a function that keeps the annotated type alive.
    ///
    /// Whole-module optimisation emits the metadata of an internal struct or enum, and its conformance records,
    /// only if something uses them; an annotated type may have no other use, and `_typeByName` would then find
    /// nothing in a release build. Returning the type as an existential metatype (`keepAliveType`: `Any.Type`, or
    /// `any Protocol.Type` to also check a conformance at compile time) uses both, and `@used` keeps the function
    /// through the optimiser and `--gc-sections`.
    func declarations(in context: some MacroExpansionContext, keepAliveType: String = "Any.Type") -> [DeclSyntax] {
        let bytes = Array(text.utf8) + [0]
        let recordType = "(" + repeatElement("Swift.UInt8", count: bytes.count).joined(separator: ", ") + ")"
        let recordValue = "(" + bytes.map(String.init).joined(separator: ", ") + ")"
        // The note's name with its NUL, padded to a multiple of 4 bytes.
        let noteNameBytes = Array(Self.noteName.utf8) + [0]
        let paddedName = noteNameBytes + Array(repeating: 0, count: (4 - noteNameBytes.count % 4) % 4)
        let noteNameType = "(" + repeatElement("Swift.UInt8", count: paddedName.count).joined(separator: ", ") + ")"
        let noteNameValue = "(" + paddedName.map(String.init).joined(separator: ", ") + ")"
        let noteTypeDigits = String(Self.noteType, radix: 16)
        let noteTypeLiteral = "0x" + noteTypeDigits.dropLast(4) + "_" + noteTypeDigits.suffix(4)
        return [
            """
            /// \(raw: text)
            @section("\(raw: section)") @used
            private static let \(context.makeUniqueName("beeHiveRecord")): \(raw: recordType) = \(raw: recordValue)
            """,
            // The note: namesz, descsz and type, the name padded to 4 bytes, then the descriptor. LLVM gives a
            // section named .note* the type SHT_NOTE, and the linker puts it in a PT_NOTE segment, readable from
            // memory without the section table.
            """
            @section(".note.beehive") @used
            private static let \(context.makeUniqueName("beeHiveNote")): (Swift.UInt32, Swift.UInt32, Swift.UInt32, \(raw: noteNameType), Swift.UInt32) = (\(raw: noteNameBytes.count), 4, \(raw: noteTypeLiteral), \(raw: noteNameValue), \(raw: Self.noteVersion))
            """,
            """
            @used
            private static func \(context.makeUniqueName("beeHiveKeepAlive"))() -> \(raw: keepAliveType) { Self.self }
            """,
        ]
    }
}
