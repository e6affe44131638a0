@_spi(BeeHiveInternals) @_spi(Fuzzing) import BeeHiveRegistry
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
    if bytes.starts(with: "BHPINDEX".utf8) { bytes = PluginIndexCache.sealed(bytes) }
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
    checkEntries(bytes)
    return 0
}

/// The records the cache's layouts give for each entry, as a warm start decodes them for files the folder
/// holds: each must be readable whole, of its kind throughout, distinct from the entry's other records (its
/// sections share one buffer), and come back equal when the entries are written as a cache again and read back.
func checkEntries(_ bytes: [UInt8]) {
    guard let entries = PluginIndexCache.decodedEntries(bytes, folder: folder) else { return }
    var plugins: [IndexedPlugin] = []
    for (fileName, records) in entries {
        guard let records else { continue }
        for record in records {
            require(!record.text.isEmpty && !record.description.isEmpty, "a decoded record without text")
            require(record.identity.kind == record.kind, "a \(record.kind) record with a \(record.identity.kind) identity")
            require(kind(of: record.payload) == record.kind, "a \(record.kind) record with another payload")
        }
        // Layouts lie at increasing offsets of their sections, so no two records of an entry are the same one.
        if records.count <= 64 {
            for (position, record) in records.enumerated() {
                require(!records[(position + 1)...].contains(record), "two records of \(fileName) compare equal")
            }
        }
        let stamp = PluginFileStamp(device: 0, inode: 0, size: 0, modified: .init(seconds: 0, nanoseconds: 0), changed: .init(seconds: 0, nanoseconds: 0))
        plugins.append(IndexedPlugin(
            path: folder + "/" + fileName, fileName: fileName, stamp: stamp, buildID: nil, isAnnotated: true,
            records: records, isFromCache: true))
    }
    let again = PluginIndexCache.decodedEntries(PluginIndexCache.encoded(plugins, folder: folder), folder: folder)
    require(again?.count == plugins.count, "a cache written from decoded entries is refused or loses entries")
    for (plugin, entry) in zip(plugins, again ?? []) {
        require(entry.fileName == plugin.fileName, "entry \(plugin.fileName) read back as \(entry.fileName)")
        require(entry.records == plugin.records, "the records of \(plugin.fileName) change when written and read back")
        require(
            zip(plugin.records, entry.records ?? []).allSatisfy { $0.payload == $1.payload },
            "the payloads of \(plugin.fileName) change when written and read back")
    }
}

private func kind(of payload: AnnotationRecord.Payload) -> AnnotationKind {
    switch payload {
    case .module: .module
    case .service: .service
    case .route: .route
    case .target: .target
    }
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("plugin index cache invariant broken: \(message())") }
}
