@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

@Suite struct BoundedHistoryTests {
    @Test func keepsTheNewestAndCountsTheRest() {
        var history = BoundedHistory<Int>(limit: 3)
        history.append(contentsOf: 0..<2)
        #expect(history.entries == [0, 1])
        #expect(history.dropped == 0)
        history.append(contentsOf: 2..<7)
        history.append(7)
        #expect(history.entries == [5, 6, 7])
        #expect(history.dropped == 5)
        #expect(history.nextSequence == 8)
    }

    /// A reader's cursor: what is new since its last read, and how much the limit let go before it read.
    @Test func readsFromASequenceNumber() {
        var history = BoundedHistory<Int>(limit: 3)
        history.append(contentsOf: 0..<3)
        #expect(Array(history.entries(from: 1).entries) == [1, 2])
        #expect(history.entries(from: 3).entries.isEmpty)
        history.append(contentsOf: 3..<6)
        let behind = history.entries(from: 1)
        #expect(Array(behind.entries) == [3, 4, 5])
        #expect(behind.missed == 2)
        #expect(history.entries(from: 5).missed == 0)
        #expect(Array(history.entries(from: 5).entries) == [5])
    }

    @Test func aZeroLimitKeepsNothing() {
        var history = BoundedHistory<String>(limit: 0)
        history.append("a")
        history.countDropped(2)
        #expect(history.entries.isEmpty)
        #expect(history.dropped == 3)
    }
}
