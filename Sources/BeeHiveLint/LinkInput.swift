@_spi(BeeHiveInternals) import BeeHiveRegistry
import CLibelf
#if canImport(Glibc)
import Glibc
#endif

/// The annotation records of a file given to the linker: a relocatable object, or each member of a static
/// archive, read with libelf (nothing is linked or run).
struct LinkInput {
    /// One record and where it came from.
    struct Record {
        /// `lib.a(member.o)` for an archive member, else the path.
        let input: String
        let isArchiveMember: Bool
        let section: String
        let text: String
        /// Whether its section carries SHF_GNU_RETAIN, which keeps it under --gc-sections.
        let isRetained: Bool
    }

    let path: String
    let records: [Record]
    /// What could not be read, as lint findings.
    let problems: [LintFinding]

    init(path: String) {
        self.path = path
        var records: [Record] = []
        var problems: [LintFinding] = []
        Self.read(path: path, into: &records, &problems)
        self.records = records
        self.problems = problems
    }

    private static func read(path: String, into records: inout [Record], _ problems: inout [LintFinding]) {
        let descriptor: Int32
        do {
            descriptor = try ELFFile.openRegularFile(path)
        } catch {
            problems.append(LintFinding(.unreadableBinary(reason: error.reason), objectPath: path))
            return
        }
        defer { close(descriptor) }
        _ = ELFFile.libelfReady
        guard let file = elf_begin(descriptor, ELF_C_READ_MMAP, nil) else {
            problems.append(LintFinding(.unreadableBinary(reason: String(cString: elf_errmsg(-1))), objectPath: path))
            return
        }
        defer { elf_end(file) }
        switch elf_kind(file) {
        case ELF_K_ELF:
            read(file, input: path, isArchiveMember: false, into: &records, &problems)
        case ELF_K_AR:
            var command = ELF_C_READ_MMAP
            while let member = elf_begin(descriptor, command, file) {
                if let header = elf_getarhdr(member), let name = header.pointee.ar_name, name[0] != 0x2F,  // "/" and "//" are indexes
                    elf_kind(member) == ELF_K_ELF
                {
                    let input = "\(path)(\(String(cString: name)))"
                    read(member, input: input, isArchiveMember: true, into: &records, &problems)
                }
                command = elf_next(member)
                elf_end(member)
            }
        default:
            problems.append(LintFinding(.unreadableBinary(reason: "neither an ELF object nor a static archive"), objectPath: path))
        }
    }

    private static func read(
        _ elf: OpaquePointer, input: String, isArchiveMember: Bool, into records: inout [Record], _ problems: inout [LintFinding]
    ) {
        var names = 0
        guard elf_getshdrstrndx(elf, &names) == 0, names != 0 else {
            problems.append(LintFinding(.unreadableBinary(reason: "no section name table"), objectPath: input))
            return
        }
        var section = elf_nextscn(elf, nil)
        while let current = section {
            section = elf_nextscn(elf, current)
            var header = GElf_Shdr()
            guard gelf_getshdr(current, &header) != nil, header.sh_type != SHT_NOBITS,
                let rawName = elf_strptr(elf, names, Int(header.sh_name))
            else { continue }
            let name = String(cString: rawName)
            guard SectionName.all.contains(name) else { continue }
            guard let data = elf_getdata(current, nil), UInt64(data.pointee.d_size) == header.sh_size else {
                problems.append(LintFinding(.registry(.sectionUnreadable), objectPath: input, section: name))
                continue
            }
            let bytes = data.pointee.d_buf.map { UnsafeRawBufferPointer(start: $0, count: data.pointee.d_size) }
                ?? UnsafeRawBufferPointer(start: nil, count: 0)
            let parsed = RecordParser.records(inSection: name, bytes: bytes, objectPath: input)
            let isRetained = header.sh_flags & UInt64(SHF_GNU_RETAIN) != 0
            records += parsed.records.map {
                Record(input: input, isArchiveMember: isArchiveMember, section: name, text: $0.text, isRetained: isRetained)
            }
        }
    }
}
