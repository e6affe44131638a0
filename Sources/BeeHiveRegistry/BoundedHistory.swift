/// The newest entries of a history, up to a limit, with how many older ones were let go: a long-running
/// process that keeps loading plugins with bad records must not grow without bound.
///
/// Every entry appended gets the next sequence number, counting from 0, dropped ones included, so a reader
/// can take what is new since its last read (`entries(from:)`) without copying the whole history.
package struct BoundedHistory<Element> {
    package let limit: Int
    package private(set) var entries: [Element] = []
    /// How many entries were let go because of the limit, oldest first.
    package private(set) var dropped = 0

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The sequence number the next entry appended will get.
    package var nextSequence: Int { dropped + entries.count }

    package mutating func append(_ entry: Element) {
        append(contentsOf: CollectionOfOne(entry))
    }

    package mutating func append(contentsOf new: some Collection<Element>) {
        guard !new.isEmpty else { return }
        entries += new
        let excess = entries.count - limit
        if excess > 0 {
            entries.removeFirst(excess)
            dropped += excess
        }
    }

    /// Counts entries let go before they reached this history (a source's own limit dropped them).
    package mutating func countDropped(_ count: Int) {
        dropped += max(0, count)
    }

    /// The entries numbered `sequence` and later that are still kept, and how many numbered `sequence` or
    /// later were let go before this read.
    package func entries(from sequence: Int) -> (entries: ArraySlice<Element>, missed: Int) {
        let start = max(sequence, dropped)
        return (entries[min(start - dropped, entries.count)...], max(0, dropped - sequence))
    }
}
