import Foundation
import Synchronization
import Testing

/// Runs `body` on `count` new threads that start it together, and waits for all of them. A generous timeout
/// guards against hangs (a deadlock fails the test instead of stalling the suite); nothing here is timed.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Atomic(0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < count { sched_yield() }
            body(index)
            group.leave()
        }.start()
    }
    if group.wait(timeout: .now() + 120) == .timedOut {
        Issue.record("threads did not finish within 120 s: deadlock")
    }
}

/// Lets `parties` threads continue only once all of them have arrived; later arrivals pass straight through.
final class Barrier: Sendable {
    private let parties: Int
    private let arrived = Atomic(0)

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        let deadline = Date().addingTimeInterval(120)
        while arrived.load(ordering: .acquiring) < parties, Date() < deadline { usleep(200) }
    }
}

