@_spi(Fuzzing) import BeeHiveRegistry
import Foundation
import Testing

/// The reader of /etc/ld.so.cache: the machine's own cache, and caches written here in glibc's format with
/// every way an entry or the header can be cut or point outside the file.
@Suite struct LoaderCacheTests {
    /// A cache in glibc's format: the header, one entry per name (its path after it in the string table),
    /// then the strings; `count` overrides the number of entries the header states.
    static func cache(_ names: [String], count: UInt32? = nil, keys: [UInt32?]? = nil) -> [UInt8] {
        let stringsStart = LoaderCache.headerSize + names.count * LoaderCache.entrySize
        var strings: [UInt8] = []
        var entries: [UInt8] = []
        for (index, name) in names.enumerated() {
            let key = UInt32(stringsStart + strings.count)
            strings += Array(name.utf8) + [0]
            let value = UInt32(stringsStart + strings.count)
            strings += Array("/usr/lib/\(name)".utf8) + [0]
            for word in [0x303, (keys?[index] ?? nil) ?? key, value, 0] as [UInt32] { entries += withUnsafeBytes(of: word) { Array($0) } }
            entries += [UInt8](repeating: 0, count: 8)
        }
        var header = LoaderCache.magic
        header += withUnsafeBytes(of: count ?? UInt32(names.count)) { Array($0) }
        header += withUnsafeBytes(of: UInt32(strings.count)) { Array($0) }
        header += [UInt8](repeating: 0, count: LoaderCache.headerSize - header.count)
        return header + entries + strings
    }

    @Test func readsEveryNameOfACache() {
        #expect(LoaderCache.libraryNames(in: Self.cache(["libz.so.1", "libelf.so.1", "libz.so.1"])) == .success(["libz.so.1", "libelf.so.1"]))
        #expect(LoaderCache.libraryNames(in: Self.cache([])) == .success([]))
    }

    @Test func readsTheMachinesCache() throws {
        guard FileManager.default.fileExists(atPath: LibrarySearch.cachePath) else { return }
        let bytes = try RegularFile.contents(atPath: LibrarySearch.cachePath)
        let names = try LoaderCache.libraryNames(in: Array(bytes)).get()
        #expect(names.contains("libc.so.6"), "\(names.count) names")
    }

    @Test func refusesOtherFormatsAndCutHeaders() {
        let whole = Self.cache(["libz.so.1"])
        #expect(LoaderCache.libraryNames(in: Array("ld.so-1.7.0".utf8) + [UInt8](repeating: 0, count: 64)) == .failure(.unknownFormat))
        #expect(LoaderCache.libraryNames(in: []) == .failure(.truncated))
        #expect(LoaderCache.libraryNames(in: Array(whole.prefix(30))) == .failure(.truncated))
        #expect(LoaderCache.libraryNames(in: Array("not a cache".utf8)) == .failure(.unknownFormat))
        // More entries stated than the file holds.
        #expect(LoaderCache.libraryNames(in: Self.cache(["libz.so.1"], count: 1_000)) == .failure(.truncated))
        #expect(LoaderCache.libraryNames(in: Self.cache(["libz.so.1"], count: .max)) == .failure(.truncated))
    }

    /// A name whose offset lies past the end, whose string has no end, or is empty is left out; the others
    /// are read.
    @Test func leavesOutNamesOutsideTheFile() {
        var bytes = Self.cache(["liba.so", "libb.so", "libc.so"], keys: [.max, 0xFFFF_FFF0, nil])
        #expect(LoaderCache.libraryNames(in: bytes) == .success(["libc.so"]))
        bytes = Self.cache(["liba.so", "libb.so"])
        bytes.removeLast("/usr/lib/libb.so".utf8.count + 1 + "libb.so".utf8.count / 2)
        #expect(LoaderCache.libraryNames(in: bytes) == .success(["liba.so"]))
    }
}
