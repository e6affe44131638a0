/// Bytes found eight at a time (SWAR): the record scanner, the record parser and the router's URL reader test
/// whole words for the bytes they look for. One definition, so the three cannot drift apart.
///
/// Public behind an SPI rather than `package`: this toolchain inlined a `package` `@inlinable` function into no
/// other module, which left the router's path reader a call per byte class and word (about 160 instructions per
/// routing call). Apps do not see it unless they import the SPI.
@_spi(BeeHiveInternals)
public enum ByteMask {
    /// The high bit of each byte of `word` that equals `byte`, and no other bit. Each byte is compared exactly,
    /// so no carry crosses into the next byte and every match is found, not only the first (unlike the shorter
    /// `(word - 0x01…) & ~word` test).
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let difference = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return ~(((difference & low) &+ low) | difference | low)
    }
}
