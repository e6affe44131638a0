import CLibelf
#if canImport(Glibc)
import Glibc
#endif

/// What the dynamic loader reads from an executable's or shared library's dynamic section: the libraries it
/// needs and the search paths it names, with where each search path's string lies in the file, so that a
/// bundler can rewrite it in place. Read with libelf; nothing is loaded or run.
///
/// Every offset comes from the file and is checked against the string table it points into.
public struct DynamicSection: Sendable {
    public struct ReadError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// A DT_RUNPATH or DT_RPATH string.
    public struct SearchPath: Sendable, Equatable {
        public let value: String
        /// Where its first byte is in the file, and how many bytes it has before its NUL (not `value`'s UTF-8
        /// count, which differs when the file's bytes are not UTF-8 and decoding repaired them).
        public let fileOffset: UInt64
        public let byteCount: Int
        /// Whether another string of the dynamic string table starts inside this one (linkers may store a
        /// string that is the tail of another only once), so that rewriting it would change that string too.
        public let sharesBytes: Bool

        /// Its colon-separated entries, as the loader splits them.
        public var entries: [String] { value.split(separator: ":", omittingEmptySubsequences: true).map(String.init) }
    }

    /// DT_NEEDED, in the order of the dynamic section (the loader's order).
    public let needed: [String]
    public let runpath: SearchPath?
    public let rpath: SearchPath?

    /// Reads `path`'s dynamic section. A file with none (a static executable) needs nothing and names no path.
    public init(path: String) throws(ReadError) {
        let descriptor: Int32
        do {
            descriptor = try ELFFile.openRegularFile(path)
        } catch {
            throw ReadError(path: path, reason: error.reason)
        }
        defer { close(descriptor) }
        _ = ELFFile.libelfReady
        guard let elf = elf_begin(descriptor, ELF_C_READ_MMAP, nil) else {
            throw ReadError(path: path, reason: String(cString: elf_errmsg(-1)))
        }
        defer { elf_end(elf) }
        guard elf_kind(elf) == ELF_K_ELF else { throw ReadError(path: path, reason: "not an ELF file") }

        var dynamic: (section: OpaquePointer, header: GElf_Shdr)?
        var section = elf_nextscn(elf, nil)
        while let current = section, dynamic == nil {
            var header = GElf_Shdr()
            if gelf_getshdr(current, &header) != nil, header.sh_type == SHT_DYNAMIC { dynamic = (current, header) }
            section = elf_nextscn(elf, current)
        }
        guard let (dynamicSection, dynamicHeader) = dynamic else {
            needed = []
            runpath = nil
            rpath = nil
            return
        }
        let strings = try StringTable(elf: elf, index: Int(dynamicHeader.sh_link), path: path)
        guard dynamicHeader.sh_entsize > 0, let data = elf_getdata(dynamicSection, nil) else {
            throw ReadError(path: path, reason: "its dynamic section cannot be read")
        }

        var needed: [String] = []
        var searchPaths: [Int64: UInt64] = [:]
        var offsets: [UInt64] = []
        for index in 0..<Int32(clamping: UInt64(data.pointee.d_size) / dynamicHeader.sh_entsize) {
            var entry = GElf_Dyn()
            guard gelf_getdyn(data, index, &entry) != nil, entry.d_tag != Int64(DT_NULL) else { break }
            switch entry.d_tag {
            case Int64(DT_NEEDED):
                needed.append(try strings.string(at: entry.d_un.d_val, for: "DT_NEEDED"))
                offsets.append(entry.d_un.d_val)
            case Int64(DT_RUNPATH), Int64(DT_RPATH):
                searchPaths[entry.d_tag] = entry.d_un.d_val
            case Int64(DT_SONAME), Int64(DT_AUXILIARY), Int64(DT_FILTER):
                offsets.append(entry.d_un.d_val)
            default:
                break
            }
        }
        offsets += Self.otherStringOffsets(elf: elf, stringTable: Int(dynamicHeader.sh_link))

        func searchPath(_ tag: Int32, _ name: String) throws(ReadError) -> SearchPath? {
            guard let offset = searchPaths[Int64(tag)] else { return nil }
            let (value, byteCount) = try strings.stringAndByteCount(at: offset, for: name)
            let end = offset + UInt64(byteCount)
            return SearchPath(
                value: value, fileOffset: strings.fileOffset + offset, byteCount: byteCount,
                sharesBytes: offsets.contains { $0 > offset && $0 < end })
        }
        self.needed = needed
        // Each search path's offsets count for the other: DT_RPATH may be the tail of DT_RUNPATH.
        offsets += searchPaths.values
        runpath = try searchPath(DT_RUNPATH, "DT_RUNPATH")
        rpath = try searchPath(DT_RPATH, "DT_RPATH")
    }

    /// The dynamic string table: its bytes and where they are in the file.
    private struct StringTable {
        let path: String
        let bytes: UnsafeRawBufferPointer
        let fileOffset: UInt64

        init(elf: OpaquePointer, index: Int, path: String) throws(ReadError) {
            self.path = path
            var header = GElf_Shdr()
            guard let section = elf_getscn(elf, index), gelf_getshdr(section, &header) != nil,
                header.sh_type == SHT_STRTAB, let data = elf_getdata(section, nil), let base = data.pointee.d_buf,
                UInt64(data.pointee.d_size) == header.sh_size
            else { throw ReadError(path: path, reason: "the string table of its dynamic section cannot be read") }
            bytes = UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)
            fileOffset = header.sh_offset
        }

        func string(at offset: UInt64, for tag: String) throws(ReadError) -> String {
            try stringAndByteCount(at: offset, for: tag).string
        }

        func stringAndByteCount(at offset: UInt64, for tag: String) throws(ReadError) -> (string: String, byteCount: Int) {
            guard offset < UInt64(bytes.count), let end = bytes[Int(offset)...].firstIndex(of: 0) else {
                throw ReadError(path: path, reason: "its \(tag) string at offset \(offset) is not inside its string table")
            }
            return (String(decoding: bytes[Int(offset)..<end], as: UTF8.self), end - Int(offset))
        }
    }

    /// The offsets into the dynamic string table that other sections hold: the dynamic symbols' names and the
    /// version needs' and definitions' names. Counts come from the bytes the file holds.
    private static func otherStringOffsets(elf: OpaquePointer, stringTable: Int) -> [UInt64] {
        var offsets: [UInt64] = []
        var section = elf_nextscn(elf, nil)
        while let current = section {
            section = elf_nextscn(elf, current)
            var header = GElf_Shdr()
            guard gelf_getshdr(current, &header) != nil, Int(header.sh_link) == stringTable,
                let data = elf_getdata(current, nil)
            else { continue }
            // Each version record is at least 8 bytes: a bound for a chain of `next` offsets that loops.
            let limit = data.pointee.d_size / 8
            switch header.sh_type {
            case UInt32(SHT_DYNSYM) where header.sh_entsize > 0:
                for index in 0..<Int32(clamping: UInt64(data.pointee.d_size) / header.sh_entsize) {
                    var symbol = GElf_Sym()
                    if gelf_getsym(data, index, &symbol) != nil { offsets.append(UInt64(symbol.st_name)) }
                }
            case UInt32(SHT_GNU_verneed):
                var offset = 0
                for _ in 0..<limit {
                    var need = GElf_Verneed()
                    guard offset <= Int(Int32.max), gelf_getverneed(data, Int32(offset), &need) != nil else { break }
                    offsets.append(UInt64(need.vn_file))
                    var auxiliary = offset + Int(need.vn_aux)
                    for _ in 0..<min(Int(need.vn_cnt), limit) {
                        var name = GElf_Vernaux()
                        guard auxiliary <= Int(Int32.max), gelf_getvernaux(data, Int32(auxiliary), &name) != nil else { break }
                        offsets.append(UInt64(name.vna_name))
                        guard name.vna_next != 0 else { break }
                        auxiliary += Int(name.vna_next)
                    }
                    guard need.vn_next != 0 else { break }
                    offset += Int(need.vn_next)
                }
            case UInt32(SHT_GNU_verdef):
                var offset = 0
                for _ in 0..<limit {
                    var definition = GElf_Verdef()
                    guard offset <= Int(Int32.max), gelf_getverdef(data, Int32(offset), &definition) != nil else { break }
                    var auxiliary = offset + Int(definition.vd_aux)
                    for _ in 0..<min(Int(definition.vd_cnt), limit) {
                        var name = GElf_Verdaux()
                        guard auxiliary <= Int(Int32.max), gelf_getverdaux(data, Int32(auxiliary), &name) != nil else { break }
                        offsets.append(UInt64(name.vda_name))
                        guard name.vda_next != 0 else { break }
                        auxiliary += Int(name.vda_next)
                    }
                    guard definition.vd_next != 0 else { break }
                    offset += Int(definition.vd_next)
                }
            default:
                break
            }
        }
        return offsets
    }
}
