/// What only the fuzzers use. The Fuzz package is another package, which `package` access does not reach, so
/// this is SPI: public in the binary, visible only to `@_spi(Fuzzing) import BeeHiveRegistry`.
extension PluginIndexCache {
    /// `bytes` with the version, host and checksum this build's header must carry, so that a fuzzer's
    /// mutations, and seeds written by other builds, reach the decoder behind those checks; bytes too short
    /// for a header are returned as they are.
    @_spi(Fuzzing)
    public static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= PluginIndexCacheFormat.headerSize else { return bytes }
        var sealed = bytes
        withUnsafeBytes(of: PluginIndexCacheFormat.version.littleEndian) { sealed.replaceSubrange(8..<12, with: $0) }
        withUnsafeBytes(of: PluginIndexCacheFormat.host.littleEndian) { sealed.replaceSubrange(12..<16, with: $0) }
        PluginIndexCacheFormat.seal(&sealed)
        return sealed
    }

    /// Every plugin entry of the cache `bytes` of `folder`, with the records its stored layouts give (nil where
    /// decoding refuses a layout), or nil when the cache as a whole is refused. This is what a warm start
    /// decodes for the files a folder holds, reached without the folder holding them: the records of an entry
    /// are decoded only when its file is there, so fuzzing through an empty folder never gets that far.
    @_spi(Fuzzing)
    public static func decodedEntries(_ bytes: [UInt8], folder: String) -> [(fileName: String, records: [AnnotationRecord]?)]? {
        let image = PluginIndexCacheImage(copying: bytes)
        guard let decoded = try? PluginIndexCacheFormat.decode(image, folder: folder) else { return nil }
        return decoded.entries.map { name, entry in
            let path = folder + "/" + name.name
            return (name.name, PluginIndexCacheFormat.records(of: entry, in: image, path: path))
        }
    }

    /// The cache of `folder` holding `plugins`, sealed, as an index writes it.
    @_spi(Fuzzing)
    public static func encoded(_ plugins: [IndexedPlugin], folder: String) -> [UInt8] {
        PluginIndexCacheFormat.encode(plugins, folder: folder)
    }
}
