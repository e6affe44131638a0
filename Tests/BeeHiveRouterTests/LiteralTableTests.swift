import Testing

@_spi(BeeHiveInternals) @testable import BeeHiveRouter

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
        for key in keys where remaining[key] == nil { table.insert(key, child: 5_000) }
        for key in keys { #expect(table.child(for: key) == (remaining[key] ?? 5_000)) }
        for key in keys { table.remove(key) }
        #expect(table.isEmpty)
        table.remove("absent")
        #expect(table.isEmpty)
    }

    /// Keys up to 16 bytes are compared by their inline head, longer ones by their bytes too: keys that share a
    /// head, or differ only past it or by a trailing NUL, stay apart.
    @Test func keysAroundTheInlineLengthStayApart() {
        let prefix = String(repeating: "p", count: 16)
        let keys = ["", "a", "a\u{0}", "\u{0}", "abcdefgh", "abcdefgh\u{0}", prefix, prefix + "x", prefix + "y", prefix + "xy", "café/%20", "ñ"]
        var table = LiteralTable()
        for (index, key) in keys.enumerated() { table.insert(key, child: Int32(index)) }
        for (index, key) in keys.enumerated() { #expect(table.child(for: key) == Int32(index), "\(key.debugDescription)") }
        #expect(table.child(for: prefix + "z") == nil)
        #expect(table.child(for: String(prefix.dropLast())) == nil)
        #expect(table.child(for: "abcdefg") == nil)
        table.remove(prefix + "x")
        #expect(table.child(for: prefix + "x") == nil)
        #expect(table.child(for: prefix + "xy") == Int32(9))
        #expect(table.child(for: prefix + "y") == Int32(8))
    }

    /// A URL component is looked up where it lies in its URL, read as whole words when the URL goes on past it:
    /// the bytes after the key must not count, whatever the key's length.
    @Test func keysInsideALongerBufferAreFoundByTheirOwnBytes() {
        let keys = (0...24).map { String(repeating: "k", count: $0) } + (1...20).map { "v" + String($0) }
        var table = LiteralTable()
        for (index, key) in keys.enumerated() { table.insert(key, child: Int32(index)) }
        for (index, key) in keys.enumerated() {
            for trailer in ["", "/", "k", "kkkkkkkkkkkkkkkkkkkk", "/x/y?z=1&w=2#top"] {
                let buffer = Array((key + trailer).utf8)
                buffer.withUnsafeBufferPointer { whole in
                    let found = table.child(for: UnsafeBufferPointer(rebasing: whole[..<key.utf8.count]), readable: whole.count)
                    #expect(found == Int32(index), "\(key.debugDescription) followed by \(trailer.debugDescription)")
                }
            }
        }
        Array("v1x/and more bytes".utf8).withUnsafeBufferPointer { whole in
            #expect(table.child(for: UnsafeBufferPointer(rebasing: whole[..<3]), readable: whole.count) == nil)
        }
    }
}
