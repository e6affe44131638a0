import Testing

@testable import BeeHiveRouter

@Suite struct LiteralTableTests {
    @Test func findsEveryKeyAndNothingElse() {
        var table = LiteralTable()
        #expect(table.isEmpty)
        #expect(table.child(for: "a") == nil)
        for index in 0..<2_000 { table.insert("key\(index)", child: Int32(index)) }
        for index in 0..<2_000 { #expect(table.child(for: "key\(index)") == Int32(index)) }
        #expect(table.child(for: "key2000") == nil)
        #expect(table.child(for: "") == nil)
        #expect(table.child(for: "café") == nil)
    }

    @Test func removalKeepsEveryOtherKeyReachable() {
        var table = LiteralTable()
        let keys = (0..<1_000).map { "k\($0)" }
        for (index, key) in keys.enumerated() { table.insert(key, child: Int32(index)) }
        var generator = SplitMix(seed: 42)
        var remaining = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.element, Int32($0.offset)) })
        for key in keys.shuffled(using: &generator).prefix(700) {
            table.remove(key)
            remaining[key] = nil
            #expect(table.child(for: key) == nil)
        }
        for (key, child) in remaining { #expect(table.child(for: key) == child) }
        for key in keys where remaining[key] == nil { table.insert(key, child: -2) }
        for key in keys { #expect(table.child(for: key) == (remaining[key] ?? -2)) }
        for key in keys { table.remove(key) }
        #expect(table.isEmpty)
        table.remove("absent")
        #expect(table.isEmpty)
    }
}

/// A seeded generator, so that the removal order is the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
