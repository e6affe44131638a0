/// What `MemoryPressureSource` saw: the custom parameter of `didReceiveMemoryWarning`.
public struct MemoryPressure: Sendable, Hashable, CustomStringConvertible {
    /// How much each `memory.events` counter (`high`, `max`, `oom`, `oom_kill`) rose since the last poll.
    public let eventIncreases: [String: Int]
    /// PSI's `some avg10` (percent of the last 10 s that some task stalled on memory), when it crossed
    /// the threshold.
    public let stallPercentage: Double?

    package init(eventIncreases: [String: Int], stallPercentage: Double?) {
        self.eventIncreases = eventIncreases
        self.stallPercentage = stallPercentage
    }

    public var description: String {
        var parts = eventIncreases.sorted { $0.key < $1.key }.map { "memory.events \($0.key) +\($0.value)" }
        if let stallPercentage { parts.append("memory stalls \(stallPercentage)% over 10 s") }
        return parts.joined(separator: ", ")
    }
}
