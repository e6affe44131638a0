import Dispatch
import Synchronization

extension Array where Element: Sendable {
    /// `transform` applied to every element, results in order, on up to `workers` threads (the caller's among
    /// them). Each thread takes the next element nobody has taken, so a thread that starts late takes fewer.
    func concurrentMap<Result: Sendable>(workers: Int, _ transform: @Sendable (Element) -> Result) -> [Result] {
        guard workers > 1, count > 1 else { return map(transform) }
        let count = self.count
        let next = Atomic<Int>(0)
        // Each thread's release, acquired below, orders its results before their reading in a way that the
        // thread sanitizer sees too (it does not see the join inside `concurrentPerform`).
        let finished = Atomic<Int>(0)
        let threads = Swift.min(workers, count)
        return [Result](unsafeUninitializedCapacity: count) { results, initialized in
            let slots = UnsafeSendable(results.baseAddress!)
            withUnsafeBufferPointer { elements in
                let elements = UnsafeSendable(elements)
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        (slots.value + index).initialize(to: transform(elements.value[index]))
                    }
                    finished.add(1, ordering: .releasing)
                }
            }
            precondition(finished.load(ordering: .acquiring) == threads, "a worker did not finish")
            initialized = count
        }
    }
}

/// A pointer handed to worker threads that each touch elements of their own.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
