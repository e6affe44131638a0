@_spi(Fuzzing) import BeeHiveRegistry
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// The reader of the dynamic loader's cache (/etc/ld.so.cache), which decides whether a plugin's needed library
// can be found before dlopen: besides crashes and sanitizer reports, a cache is read only when its header is
// whole, and every name it gives is a string of the input (non-empty, no NUL, within the length bound), no more
// of them than entries the header states.
exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    guard case .success(let names) = LoaderCache.libraryNames(in: bytes) else { return 0 }
    guard bytes.count >= LoaderCache.headerSize, bytes.starts(with: LoaderCache.magic) else {
        fatalError("a \(bytes.count)-byte input without the cache's header was read as a cache")
    }
    let stated = Int(bytes[20]) | Int(bytes[21]) << 8 | Int(bytes[22]) << 16 | Int(bytes[23]) << 24
    guard names.count <= stated else { fatalError("\(names.count) names from a cache stating \(stated) entries") }
    for name in names {
        let utf8 = Array(name.utf8)
        guard !utf8.isEmpty, !utf8.contains(0), utf8.count < LoaderCache.nameLimit else {
            fatalError("the name '\(name)' is empty, holds a NUL or is over the bound")
        }
    }
    return 0
}
