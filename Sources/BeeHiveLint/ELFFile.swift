import CLibelf
#if canImport(Glibc)
import Glibc
#endif

/// An ELF executable or shared library opened read-only with libelf, for its symbols and the bytes at its
/// virtual addresses. Nothing is loaded or run.
final class ELFFile {
    struct OpenError: Error {
        let reason: String
    }

    let path: String
    private let descriptor: Int32
    private let elf: OpaquePointer
    /// Data of allocated sections with contents, by address, for reading what pointers point at.
    private var allocated: [(address: UInt64, size: UInt64, section: OpaquePointer)] = []

    init(path: String) throws(OpenError) {
        _ = Self.libelfReady
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OpenError(reason: String(cString: strerror(errno))) }
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
            if header.sh_flags & UInt64(SHF_ALLOC) != 0, header.sh_type != SHT_NOBITS, header.sh_size > 0 {
                allocated.append((header.sh_addr, header.sh_size, section))
            }
        }
    }

    deinit {
        elf_end(elf)
        close(descriptor)
    }

    private static let libelfReady: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)

    /// Relocatable objects (`.o`) have no addresses yet; only their symbols can be read.
    var hasAddresses: Bool {
        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else { return false }
        return header.e_type == ET_EXEC || header.e_type == ET_DYN
    }

    /// Calls `body` with the name of every symbol of .symtab and .dynsym and whether this file defines it.
    func forEachSymbol(_ body: (_ name: UnsafePointer<CChar>, _ isDefined: Bool) -> Void) {
        forEachSection { section, header in
            guard header.sh_type == SHT_SYMTAB || header.sh_type == SHT_DYNSYM, header.sh_entsize > 0,
                let data = elf_getdata(section, nil)
            else { return }
            for index in 0..<Int32(clamping: header.sh_size / header.sh_entsize) {
                var symbol = GElf_Sym()
                guard gelf_getsym(data, index, &symbol) != nil, symbol.st_name != 0,
                    let name = elf_strptr(elf, Int(header.sh_link), Int(symbol.st_name))
                else { continue }
                body(name, symbol.st_shndx != UInt16(SHN_UNDEF))
            }
        }
    }

    /// The address and size of the section with this name.
    func section(named name: String) -> (address: UInt64, size: UInt64)? {
        var index = 0
        guard elf_getshdrstrndx(elf, &index) == 0 else { return nil }
        var found: (UInt64, UInt64)?
        forEachSection { _, header in
            guard found == nil, let sectionName = elf_strptr(elf, index, Int(header.sh_name)),
                String(cString: sectionName) == name
            else { return }
            found = (header.sh_addr, header.sh_size)
        }
        return found
    }

    /// `count` bytes at a virtual address, if they lie in one allocated section.
    func bytes(at address: UInt64, count: Int) -> UnsafeRawBufferPointer? {
        for (start, size, section) in allocated where address >= start && address - start < size {
            guard UInt64(count) <= size - (address - start), let data = elf_getdata(section, nil), let base = data.pointee.d_buf,
                UInt64(data.pointee.d_size) == size
            else { return nil }
            return UnsafeRawBufferPointer(start: base + Int(address - start), count: count)
        }
        return nil
    }

    func int32(at address: UInt64) -> Int32? {
        bytes(at: address, count: 4).map { $0.loadUnaligned(as: Int32.self) }
    }

    /// The NUL-terminated string at a virtual address, up to `limit` bytes.
    func string(at address: UInt64, limit: Int = 1024) -> String? {
        for (start, size, _) in allocated where address >= start && address - start < size {
            let available = Int(min(UInt64(limit), size - (address - start)))
            guard let buffer = bytes(at: address, count: available), let end = buffer.firstIndex(of: 0) else { return nil }
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
