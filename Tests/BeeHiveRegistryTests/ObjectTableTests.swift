@_spi(BeeHiveInternals) @testable import BeeHiveRegistry
import Testing

@Suite struct ObjectTableTests {
    @Test func keepsEntriesInIDOrderWhateverTheInsertOrder() {
        var table = ObjectTable<String>()
        #expect(table.isEmpty)
        for id: UInt64 in [5, 1, 9, 3] { table[id] = "object \(id)" }
        #expect(table.ids == [1, 3, 5, 9])
        #expect(table.values == ["object 1", "object 3", "object 5", "object 9"])
        #expect(table[3] == "object 3")
        #expect(table[4] == nil)
        #expect(table.contains(id: 9) && !table.contains(id: 4))
        #expect(table[10] == nil)
    }

    @Test func replacesAndRemovesByID() {
        var table = ObjectTable<String>()
        table[1] = "a"
        table[2] = "b"
        table[1] = "c"
        #expect(table.values == ["c", "b"])
        #expect(table.removeValue(forID: 1) == "c")
        #expect(table.removeValue(forID: 1) == nil)
        table[7] = nil
        table[2] = nil
        #expect(table.isEmpty)
    }
}
