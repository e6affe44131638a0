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
    /// The module attribute that lists its dependencies (`BEEHIVE_ATTRIBUTE_DEPENDS`).
    static let dependsAttribute = "depends"
    /// The module attribute that lets its plugin load on first use (`BEEHIVE_ATTRIBUTE_ON_DEMAND`).
    static let onDemandAttribute = "ondemand"
    /// The note that marks an annotated object (version 1: no offsets; the C target CBeeHiveAnnotationNote,
    /// linked with the macros, adds the version 2 note whose offsets locate the sections in memory).
    static let noteName = "BeeHive"
    static let noteType: UInt32 = 0x4248_0001
    static let noteVersion: UInt32 = 1

    /// The compile-time type references, read from memory next to the records (see `TypeReferences`).
    static let types = "beehive_types"

    let section: String
    let text: String
    /// The annotated type, as recorded and as written in source.
    let type: RuntimeTypeName
    /// The protocol, module-qualified, as whose existential metatype the manager resolves the type.
    let conformance: String

    /// The record, the note, and the type reference: the hash of the recorded type name and a function that
    /// returns the type as `conformance`'s existential metatype, so that the registry gets the type without a
    /// name lookup or a conformance scan, and the compiler checks the conformance. Passed 1 instead of a
    /// metatype (`TypeReferences.nameQuery`), the function returns the name it was written under, so that a
    /// name whose hash it shares cannot find it.
    ///
    /// The reference also keeps the type alive: whole-module optimisation emits the metadata of an internal
    /// struct or enum, and its conformance records, only if something uses them, and an annotated type may have
    /// no other use. `checkedConformance` adds a function that returns the type as another existential
    /// metatype (a service's protocol), only for the compiler's check.
    ///
    /// `protocolReference` (a service's protocol: the name recorded and the protocol as written) adds a reference
    /// that returns the protocol as `Any.Type`, under the hash of the recorded name.
    func declarations(
        in context: some MacroExpansionContext, checkedConformance: String? = nil,
        protocolReference: (name: String, source: String)? = nil
    ) -> [DeclSyntax] {
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
        let localName = type.components.last?.name ?? "Self"
        let existential = "(any \(conformance).Type)"
        var declarations: [DeclSyntax] = [
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
            @section("\(raw: Self.types)") @used
            private static let \(context.makeUniqueName("beeHiveType")): (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (\(raw: Self.hashLiteral(of: type.recordText)), { expected, result in
                if Swift.Int(bitPattern: expected) == 1 {
                    result.initializeMemory(as: Swift.StaticString.self, repeating: \(raw: Self.stringLiteral(type.recordText)), count: 1)
                    return true
                }
                guard expected == Swift.unsafeBitCast(\(raw: existential).self as Any.Type, to: Swift.UnsafeRawPointer.self) else { return false }
                result.initializeMemory(as: \(raw: existential).self, repeating: `\(raw: localName)`.self, count: 1)
                return true
            })
            """,
        ]
        if let (name, source) = protocolReference {
            // Lets the service manager know the protocol by name at start-up without a name lookup, which for a
            // protocol scans every conformance record of the process.
            declarations.append(
                """
                @section("\(raw: Self.types)") @used
                private static let \(context.makeUniqueName("beeHiveProtocol")): (Swift.UInt64, @convention(c) (Swift.UnsafeRawPointer, Swift.UnsafeMutableRawPointer) -> Swift.Bool) = (\(raw: Self.hashLiteral(of: name)), { expected, result in
                    if Swift.Int(bitPattern: expected) == 1 {
                        result.initializeMemory(as: Swift.StaticString.self, repeating: \(raw: Self.stringLiteral(name)), count: 1)
                        return true
                    }
                    guard expected == Swift.unsafeBitCast(Any.Type.self as Any.Type, to: Swift.UnsafeRawPointer.self) else { return false }
                    result.initializeMemory(as: Any.Type.self, repeating: (any \(raw: source)).self, count: 1)
                    return true
                })
                """)
        }
        if let checkedConformance {
            declarations.append(
                """
                @used
                private static func \(context.makeUniqueName("beeHiveKeepAlive"))() -> any \(raw: checkedConformance).Type { Self.self }
                """)
        }
        return declarations
    }

    /// 64-bit FNV-1a of the name's UTF-8 bytes, never 0 (0 marks padding): `TypeReferences.hash` in the registry.
    static func hash(of name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash == 0 ? 1 : hash
    }

    /// The name as a Swift string literal: quotes, backslashes and control characters escaped.
    static func stringLiteral(_ name: String) -> String {
        var literal = "\""
        for scalar in name.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                literal += "\\" + String(scalar)
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                literal += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    private static func hashLiteral(of name: String) -> String {
        "0x" + String(hash(of: name), radix: 16)
    }
}
