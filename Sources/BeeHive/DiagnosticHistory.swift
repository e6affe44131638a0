/// The latest diagnostics, up to a limit, and how many older ones were let go: a long-running process that
/// loads and unloads plugins with bad records must not grow without bound.
struct DiagnosticHistory {
    let limit: Int
    private(set) var entries: [HiveDiagnostic] = []
    private(set) var dropped = 0

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(contentsOf found: [HiveDiagnostic]) {
        entries += found
        let excess = entries.count - limit
        if excess > 0 {
            entries.removeFirst(excess)
            dropped += excess
        }
    }
}
