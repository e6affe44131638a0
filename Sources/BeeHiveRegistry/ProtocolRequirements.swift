import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// Whether a plugin's conformances were compiled against the protocols this process has loaded.
///
/// A conformance's witness table (`$s…WP`, in the plugin's symbol table) holds one word for the conformance
/// and one for each requirement of the protocol as the plugin was compiled against it; the loaded protocol's
/// descriptor (`$s…Mp`, which the plugin imports) says how many requirements it has now. When the two counts
/// differ, a call through the table reads past it or lands on another requirement: a crash or a wrong answer.
/// Protocols of modules built for library evolution are skipped: their conformances are resolved when loaded.
/// So are plugins built with AddressSanitizer, which pads every global's size with a redzone.
package enum ProtocolRequirements {
    package struct Mismatch: Sendable, Hashable {
        /// The protocol, as Swift spells it (`Shared.Greeting`).
        package let protocolName: String
        /// The requirements the plugin's conformance was compiled against, and those of the loaded protocol.
        package let plugin: Int
        package let host: Int
        /// The loaded library that defines the protocol.
        package let library: String
    }

    /// The first conformance of the plugin whose protocol, as loaded in this process, has another number of
    /// requirements; nil when every conformance to a loaded, non-resilient protocol matches.
    package static func mismatch(in linkage: ObjectLinkage) -> Mismatch? {
        mismatch(in: linkage) { symbol in
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol),
                  let requirements = requirementCount(ofDescriptorAt: UnsafeRawPointer(address))
            else { return nil }
            // dladdr walks the library's symbols: asked only for a mismatch.
            return (requirements, { bh_image_containing(address).map { String(cString: $0) } ?? symbol })
        }
    }

    /// The first conformance of the plugin to a protocol that `definition` finds (its number of requirements
    /// and how to name the library that defines it, for a protocol descriptor's symbol) with another number of
    /// requirements: a loaded library at run time, or another file of a set that `beehive lint` reads.
    package static func mismatch(
        in linkage: ObjectLinkage, definition: (String) -> (requirements: Int, library: () -> String)?
    ) -> Mismatch? {
        // Under AddressSanitizer a witness table's size includes its redzone and tells nothing.
        guard !linkage.importedProtocols.isEmpty, !linkage.witnessTables.isEmpty, !linkage.isAddressSanitized else {
            return nil
        }
        var defined: [String: (requirements: Int, library: () -> String)] = [:]
        for symbol in linkage.importedProtocols {
            guard let found = definition(symbol),
                  let name = SwiftDemangling.demangle(symbol).flatMap(protocolName(ofDescriptor:))
            else { continue }
            defined[name] = found
        }
        guard !defined.isEmpty else { return nil }
        let word = UInt64(linkage.elfClass == 1 ? 4 : 8)
        for (symbol, size) in linkage.witnessTables.sorted(by: { $0.key < $1.key }) {
            guard size % word == 0, size >= word,
                  let name = SwiftDemangling.demangle(symbol).flatMap(protocolName(ofWitnessTable:)),
                  let protocolNow = defined[name]
            else { continue }
            let compiled = Int(size / word) - 1
            if compiled != protocolNow.requirements {
                return Mismatch(protocolName: name, plugin: compiled, host: protocolNow.requirements, library: protocolNow.library())
            }
        }
        return nil
    }

    /// The number of requirements of the protocol whose context descriptor lies at `descriptor` (a loaded one,
    /// or its first words as a file holds them); nil for a descriptor of another kind or of a resilient protocol. The layout is Swift's stable ABI
    /// (`TargetProtocolDescriptor`): flags, parent, name, the requirement signature's count, then the
    /// requirements' count.
    package static func requirementCount(ofDescriptorAt descriptor: UnsafeRawPointer) -> Int? {
        let flags = descriptor.loadUnaligned(as: UInt32.self)
        let isProtocol = flags & 0x1F == 3
        // Protocol-specific flags, in the high half: bit 1 is IsResilient.
        let isResilient = (flags >> 16) & 0x2 != 0
        guard isProtocol, !isResilient else { return nil }
        return Int(descriptor.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
    }

    /// `Shared.Greeting` from "protocol descriptor for Shared.Greeting".
    package static func protocolName(ofDescriptor demangled: String) -> String? {
        let prefix = "protocol descriptor for "
        guard demangled.hasPrefix(prefix) else { return nil }
        return String(demangled.dropFirst(prefix.count))
    }

    /// `Shared.Greeting` from "protocol witness table for Plugin.Hello : Shared.Greeting in Plugin".
    package static func protocolName(ofWitnessTable demangled: String) -> String? {
        let prefix = "protocol witness table for "
        guard demangled.hasPrefix(prefix) else { return nil }
        let text = Array(demangled.utf8)
        guard let colon = lastIndex(of: " : ", in: text[...]),
              let module = lastIndex(of: " in ", in: text[(colon + 3)...])
        else { return nil }
        return String(decoding: text[(colon + 3)..<module], as: UTF8.self)
    }

    /// Where `pattern` last starts in `text`.
    private static func lastIndex(of pattern: StaticString, in text: ArraySlice<UInt8>) -> Int? {
        let bytes = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        guard text.count >= bytes.count else { return nil }
        return stride(from: text.endIndex - bytes.count, through: text.startIndex, by: -1).first { start in
            text[start..<start + bytes.count].elementsEqual(bytes)
        }
    }
}
