import BeeHiveRegistry
import FuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

/// An empty plugin folder and a cache folder of our own (mode 0700, so the trust policy accepts them).
let root: String = {
    var template = Array("/tmp/beehive-cache-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot create a temporary folder") }
    let root = String(cString: made)
    mkdir(root + "/plugins", 0o700)
    mkdir(root + "/cache", 0o700)
    return root
}()
let cache = PluginIndexCache(directory: root + "/cache")
let folder: String = {
    guard let resolved = realpath(root + "/plugins", nil) else { fatalError("cannot resolve \(root)/plugins") }
    defer { free(resolved) }
    return String(cString: resolved)
}()

exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

/// One fuzz input: the content of the folder's cache file, with `@FOLDER@` standing for the folder's path (the
/// seeds use it, so that inputs get past the folder check) and its checksum set right (so that inputs get past
/// the checksum; tests cover a wrong one). The index must not crash, must hold no plugin (the
/// folder is empty, whatever the cache says), must explain any cache it rejects, and must leave a cache that a
/// second index reads without complaint.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = cache.file(forFolder: folder)
    let input = Array(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    var bytes: [UInt8] = []
    var index = 0
    let placeholder = Array("@FOLDER@".utf8)
    while index < input.count {
        if input[index...].starts(with: placeholder) {
            bytes += folder.utf8
            index += placeholder.count
        } else {
            bytes.append(input[index])
            index += 1
        }
    }
    if bytes.count >= 24, bytes.starts(with: "BHPINDEX".utf8) {
        let sum = bytes.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[24...])) }
        withUnsafeBytes(of: sum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
    }
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(descriptor >= 0, "cannot write \(file)")
    require(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count, "short write to \(file)")
    close(descriptor)
    do {
        let first = try PluginIndex.build(folder: folder, cache: cache)
        require(first.plugins.isEmpty, "the cache put a plugin the folder does not hold into the index: \(first.plugins)")
        require(first.cacheDiagnostics.allSatisfy { !$0.description.isEmpty }, "cache diagnostic without a description")
        let second = try PluginIndex.build(folder: folder, cache: cache)
        require(second.plugins.isEmpty && second.cacheDiagnostics.isEmpty, "the rewritten cache is not clean: \(second.cacheDiagnostics)")
    } catch {
        require(false, "indexing an empty trusted folder failed: \(error)")
    }
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("plugin index cache invariant broken: \(message())") }
}

/// `PluginIndexCacheFormat.checksum`, which is not public: bytes 16..<24 of a cache hold it, of the bytes after
/// the 24-byte header.
private func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    var index = 0
    func mix(_ word: UInt64) {
        hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
        hash ^= hash >> 29
    }
    while index + 8 <= bytes.count {
        mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
        index += 8
    }
    var tail: UInt64 = 0
    for byte in bytes[index...].reversed() { tail = tail << 8 | UInt64(byte) }
    mix(tail)
    return hash
}
