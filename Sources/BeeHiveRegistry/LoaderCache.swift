/// The dynamic loader's cache, /etc/ld.so.cache, which `ldconfig` writes: the libraries of the system's
/// library folders by name. Read so that a plugin needing a library the loader cannot find is refused before
/// `dlopen` (`LibrarySearch`).
///
/// Only glibc's format "glibc-ld.so.cache1.1" (the only one ldconfig writes since glibc 2.32) is read: a
/// 48-byte header (magic, version, the number of entries, the string table's length), then entries of 24
/// bytes whose second and third words are the offsets, from the start of the file, of the library's name and
/// path.
@_spi(Fuzzing) public enum LoaderCache {
    /// Why a cache cannot be read; the check it serves is then skipped, never failed.
    @_spi(Fuzzing) public enum ReadError: Error, Hashable, Sendable {
        case unknownFormat
        case truncated
    }

    @_spi(Fuzzing) public static let magic = Array("glibc-ld.so.cache1.1".utf8)
    @_spi(Fuzzing) public static let headerSize = 48
    @_spi(Fuzzing) public static let entrySize = 24

    /// The names of the libraries the cache lists. A name whose offset or end lies outside the file is
    /// left out rather than guessed.
    @_spi(Fuzzing) public static func libraryNames(in bytes: [UInt8]) -> Result<Set<String>, ReadError> {
        guard bytes.count >= headerSize else {
            return .failure(bytes.starts(with: magic.prefix(bytes.count)) ? .truncated : .unknownFormat)
        }
        guard bytes.starts(with: magic) else { return .failure(.unknownFormat) }
        let count = Int(word(bytes, at: 20))
        guard count <= (bytes.count - headerSize) / entrySize else { return .failure(.truncated) }
        var names: Set<String> = []
        for index in 0..<count {
            let key = Int(word(bytes, at: headerSize + index * entrySize + 4))
            // Names are bounded like paths, so that a hostile file costs its size once per entry at most.
            guard key < bytes.count, let end = bytes[key..<min(bytes.count, key + nameLimit)].firstIndex(of: 0),
                end > key
            else { continue }
            names.insert(String(decoding: bytes[key..<end], as: UTF8.self))
        }
        return .success(names)
    }

    @_spi(Fuzzing) public static let nameLimit = 4096

    /// A word in the byte order of the machine that wrote the cache, which is this one.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
}
