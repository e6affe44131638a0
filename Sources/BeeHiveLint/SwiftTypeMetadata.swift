/// Reads the types a binary defines from its Swift type metadata: the `swift5_type_metadata` and
/// `swift5_protocols` sections (ELF's names for Mach-O's `__swift5_types` and `__swift5_protos`) list the context
/// descriptors of its nominal types and protocols. They stay when the binary is
/// stripped of its symbol tables, because the runtime needs them to find types by name.
enum SwiftTypeMetadata {
    struct Entry: Hashable {
        let path: SwiftTypePath
        let isGeneric: Bool
    }

    /// The types listed in the file's metadata sections, and a problem for each section whose header is damaged
    /// (its types are then not read).
    static func entries(in file: ELFFile) -> (entries: [Entry], problems: [ELFFile.SectionError]) {
        guard file.hasAddresses else { return ([], []) }
        var entries: [Entry] = []
        var problems: [ELFFile.SectionError] = []
        for (name, mask) in [("swift5_type_metadata", Int32(3)), ("swift5_protocols", Int32(1))] {
            do throws(ELFFile.SectionError) {
                entries += try records(in: file, section: name, directKindMask: mask)
            } catch {
                problems.append(error)
            }
        }
        return (entries, problems)
    }

    /// Each record is a 32-bit offset from itself to a descriptor; its low bits say whether the descriptor is
    /// reached through a pointer slot instead. Slots hold relocated addresses that a file on disk does not have,
    /// so only direct records are read. The work is bounded by the bytes the file holds for the section.
    private static func records(in file: ELFFile, section name: String, directKindMask: Int32) throws(ELFFile.SectionError)
        -> [Entry]
    {
        guard let section = try file.section(named: name) else { return [] }
        var entries: [Entry] = []
        for index in 0..<section.bytes.count / 4 {
            let offset = section.bytes.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)
            let address = section.address + UInt64(index * 4)
            if offset & directKindMask == 0,
                let entry = descriptor(in: file, at: address &+ UInt64(bitPattern: Int64(offset & ~3)))
            {
                entries.append(entry)
            }
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
                let nameOffset = file.int32(at: address &+ 8),
                let name = file.string(at: address &+ 8 &+ UInt64(bitPattern: Int64(nameOffset)))
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
            guard let parentOffset = file.int32(at: address &+ 4), parentOffset != 0, parentOffset & 1 == 0 else { return nil }
            address = address &+ 4 &+ UInt64(bitPattern: Int64(parentOffset))
        }
        return nil
    }
}
