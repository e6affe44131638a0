/// What only the fuzzers use. The Fuzz package is another package, which `package` access does not reach, so
/// this is SPI: public in the binary, visible only to `@_spi(Fuzzing) import BeeHiveRegistry`.
extension PluginIndexCache {
    /// `bytes` with the checksum its header must carry, so that a fuzzer's mutations reach the decoder behind
    /// the checksum check; bytes too short for a header are returned as they are.
    @_spi(Fuzzing)
    public static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= PluginIndexCacheFormat.headerSize else { return bytes }
        var sealed = bytes
        PluginIndexCacheFormat.seal(&sealed)
        return sealed
    }
}
