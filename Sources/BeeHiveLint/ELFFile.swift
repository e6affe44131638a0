import CLibelf
#if canImport(Glibc)
import Glibc
#endif

/// An ELF executable or shared library opened read-only with libelf, for its symbols and the bytes at its
/// virtual addresses. Nothing is loaded or run.
///
/// Every size and address comes from the file and is checked before use: a section is read only where the
/// file holds all of its bytes, and its address range must not pass the end of the address space.
final class ELFFile {
    struct OpenError: Error {
        let reason: String
    }

    /// A section whose header cannot be trusted; `reason` says why.
    struct SectionError: Error, Hashable {
        let section: String
        let reason: String
    }

    let path: String
    private let descriptor: Int32
    private let elf: OpaquePointer
    /// Bytes of allocated sections with contents, by address, for reading what pointers point at.
    private var allocated: [(address: UInt64, bytes: UnsafeRawBufferPointer)] = []

    init(path: String) throws(OpenError) {
        _ = Self.libelfReady
        self.path = path
        descriptor = try Self.openRegularFile(path)
        guard let elf = elf_begin(descriptor, ELF_C_READ_MMAP, nil) else {
            close(descriptor)
            throw OpenError(reason: String(cString: elf_errmsg(-1)))
        }
        guard elf_kind(elf) == ELF_K_ELF else {
            elf_end(elf)
            close(descriptor)
            throw OpenError(reason: "not an ELF file")
        }
        self.elf = elf
        forEachSection { section, header in
            guard header.sh_flags & UInt64(SHF_ALLOC) != 0, header.sh_type != SHT_NOBITS, header.sh_size > 0,
                !header.sh_addr.addingReportingOverflow(header.sh_size).overflow,
                let bytes = Self.contents(of: section, size: header.sh_size)
            else { return }
            allocated.append((header.sh_addr, bytes))
        }
    }

    deinit {
        elf_end(elf)
        close(descriptor)
    }

    static let libelfReady: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)

    /// Opens `path` read-only without blocking (a FIFO without a writer would otherwise wait forever) and
    /// checks that it is a regular file.
    static func openRegularFile(_ path: String) throws(OpenError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        var info = stat()
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            // A socket cannot be opened at all (ENXIO): name what the path is rather than the errno.
            if stat(path, &info) == 0, let kind = fileKind(info.st_mode) {
                throw OpenError(reason: "it is \(kind), not an object file")
            }
            throw OpenError(reason: reason)
        }
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw OpenError(reason: reason)
        }
        if let kind = fileKind(info.st_mode) {
            close(descriptor)
            throw OpenError(reason: "it is \(kind), not an object file")
        }
        return descriptor
    }

    /// What a file that is not a regular file is, in words; nil for a regular file.
    private static func fileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }

    /// A section's bytes, if the file holds exactly `size` of them.
    private static func contents(of section: OpaquePointer, size: UInt64) -> UnsafeRawBufferPointer? {
        // An empty section has no buffer to point at.
        if size == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let data = elf_getdata(section, nil), let base = data.pointee.d_buf, UInt64(data.pointee.d_size) == size,
            size <= UInt64(Int.max)
        else { return nil }
        return UnsafeRawBufferPointer(start: base, count: Int(size))
    }

    /// Relocatable objects (`.o`) have no addresses yet; only their symbols can be read.
    var hasAddresses: Bool {
        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else { return false }
        return header.e_type == ET_EXEC || header.e_type == ET_DYN
    }

    /// Calls `body` with the name of every symbol of .symtab and .dynsym and whether this file defines it.
    /// The count comes from the bytes the file holds, not from the header's size.
    func forEachSymbol(_ body: (_ name: UnsafePointer<CChar>, _ isDefined: Bool) -> Void) {
        forEachSection { section, header in
            guard header.sh_type == SHT_SYMTAB || header.sh_type == SHT_DYNSYM, header.sh_entsize > 0,
                let data = elf_getdata(section, nil)
            else { return }
            for index in 0..<Int32(clamping: UInt64(data.pointee.d_size) / header.sh_entsize) {
                var symbol = GElf_Sym()
                guard gelf_getsym(data, index, &symbol) != nil, symbol.st_name != 0,
                    let name = elf_strptr(elf, Int(header.sh_link), Int(symbol.st_name))
                else { continue }
                body(name, symbol.st_shndx != UInt16(SHN_UNDEF))
            }
        }
    }

    /// The address and bytes of the section with this name; nil when there is none. Throws when its header
    /// cannot be trusted: an address range past the end of the address space, or more bytes than the file holds.
    func section(named name: String) throws(SectionError) -> (address: UInt64, bytes: UnsafeRawBufferPointer)? {
        var index = 0
        // elf_getshdrstrndx follows SHN_XINDEX to the index kept in the first section header.
        guard elf_getshdrstrndx(elf, &index) == 0, index != 0 else { return nil }
        var found: (OpaquePointer, GElf_Shdr)?
        forEachSection { section, header in
            guard found == nil, let sectionName = elf_strptr(elf, index, Int(header.sh_name)),
                String(cString: sectionName) == name
            else { return }
            found = (section, header)
        }
        guard let (section, header) = found else { return nil }
        guard !header.sh_addr.addingReportingOverflow(header.sh_size).overflow else {
            throw SectionError(
                section: name,
                reason: "its address \(hex(header.sh_addr)) plus its size \(header.sh_size) bytes passes the end of the address space")
        }
        guard header.sh_type != SHT_NOBITS, let bytes = Self.contents(of: section, size: header.sh_size) else {
            throw SectionError(section: name, reason: "its header says \(header.sh_size) bytes, which the file does not hold")
        }
        return (header.sh_addr, bytes)
    }

    /// `count` bytes at a virtual address, if they lie in one allocated section.
    func bytes(at address: UInt64, count: Int) -> UnsafeRawBufferPointer? {
        for (start, bytes) in allocated where address >= start && address - start < UInt64(bytes.count) {
            let offset = Int(address - start)
            guard count <= bytes.count - offset else { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }
        return nil
    }

    func int32(at address: UInt64) -> Int32? {
        bytes(at: address, count: 4).map { $0.loadUnaligned(as: Int32.self) }
    }

    /// The NUL-terminated string at a virtual address, up to `limit` bytes.
    func string(at address: UInt64, limit: Int = 1024) -> String? {
        for (start, bytes) in allocated where address >= start && address - start < UInt64(bytes.count) {
            let offset = Int(address - start)
            let buffer = bytes[offset..<offset + min(limit, bytes.count - offset)]
            guard let end = buffer.firstIndex(of: 0) else { return nil }
            return String(decoding: buffer[..<end], as: UTF8.self)
        }
        return nil
    }

    private func forEachSection(_ body: (OpaquePointer, GElf_Shdr) -> Void) {
        var section = elf_nextscn(elf, nil)
        while let current = section {
            var header = GElf_Shdr()
            if gelf_getshdr(current, &header) != nil { body(current, header) }
            section = elf_nextscn(elf, current)
        }
    }
}

private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
