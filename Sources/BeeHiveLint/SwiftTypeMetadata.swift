/// Reads the types a binary defines from its Swift type metadata: the `swift5_type_metadata` and
/// `swift5_protocols` sections (ELF's names for Mach-O's `__swift5_types` and `__swift5_protos`) list the context
/// descriptors of its nominal types and protocols. They stay when the binary is
/// stripped of its symbol tables, because the runtime needs them to find types by name.
enum SwiftTypeMetadata {
    struct Entry: Hashable {
        let path: SwiftTypePath
        let isGeneric: Bool
    }

    static func entries(in file: ELFFile) -> [Entry] {
        guard file.hasAddresses else { return [] }
        return records(in: file, section: "swift5_type_metadata", directKindMask: 3)
            + records(in: file, section: "swift5_protocols", directKindMask: 1)
    }

    /// Each record is a 32-bit offset from itself to a descriptor; its low bits say whether the descriptor is
    /// reached through a pointer slot instead. Slots hold relocated addresses that a file on disk does not have,
    /// so only direct records are read.
    private static func records(in file: ELFFile, section name: String, directKindMask: Int32) -> [Entry] {
        guard let section = file.section(named: name) else { return [] }
        var entries: [Entry] = []
        var address = section.address
        while address + 4 <= section.address + section.size {
            if let offset = file.int32(at: address), offset & directKindMask == 0,
                let entry = descriptor(in: file, at: address &+ UInt64(bitPattern: Int64(offset & ~3)))
            {
                entries.append(entry)
            }
            address += 4
        }
        return entries
    }

    private enum DescriptorKind: UInt32 {
        case module = 0
        case `protocol` = 3
        case `class` = 16
        case `struct` = 17
        case `enum` = 18
    }

    /// Follows a descriptor's parents up to its module. Every context descriptor starts with its flags, a
    /// relative pointer to its parent and (for these kinds) a relative pointer to its name.
    private static func descriptor(in file: ELFFile, at start: UInt64) -> Entry? {
        var components: [SwiftTypePath.Component] = []
        var isGeneric = false
        var address = start
        // Nesting depth is small; the bound guards against cycles in a corrupt file.
        for _ in 0..<64 {
            guard let flags = file.int32(at: address).map(UInt32.init(bitPattern:)),
                let kind = DescriptorKind(rawValue: flags & 0x1F),
                let nameOffset = file.int32(at: address + 8),
                let name = file.string(at: address + 8 &+ UInt64(bitPattern: Int64(nameOffset)))
            else { return nil }
            isGeneric = isGeneric || flags & 0x80 != 0
            switch kind {
            case .module:
                guard !components.isEmpty else { return nil }
                return Entry(path: SwiftTypePath(module: name, components: components.reversed()), isGeneric: isGeneric)
            case .protocol: components.append(.init(name: name, kind: .protocol))
            case .class: components.append(.init(name: name, kind: .class))
            case .struct: components.append(.init(name: name, kind: .struct))
            case .enum: components.append(.init(name: name, kind: .enum))
            }
            guard let parentOffset = file.int32(at: address + 4), parentOffset != 0, parentOffset & 1 == 0 else { return nil }
            address = address + 4 &+ UInt64(bitPattern: Int64(parentOffset))
        }
        return nil
    }
}
