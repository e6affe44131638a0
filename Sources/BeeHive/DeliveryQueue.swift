import Foundation

/// Runs the hive's deliveries one at a time, in the order asked, with no lock held while they run.
///
/// Deliveries run user code (module hooks, the initializers of modules and handlers), which may call back
/// into the hive: refresh, load or unload a plugin. A call made from inside a running delivery (on the
/// delivering thread) is queued and runs right after the current one, so it cannot deadlock. A call from
/// another thread waits until its own work is done by whichever thread is delivering. The one way to deadlock
/// is a hook that blocks until another thread's call into the hive returns.
final class DeliveryQueue: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is only touched with `condition` locked.

    typealias Work = @Sendable () -> Result<[HiveDiagnostic], HiveError>

    private let condition = NSCondition()
    private var queue: [(ticket: UInt64, work: Work)] = []
    private var deliverer: pthread_t?
    private var lastTicket: UInt64 = 0
    private var finished: UInt64 = 0
    /// Results of tickets whose callers wait on another thread.
    private var results: [UInt64: Result<[HiveDiagnostic], HiveError>] = [:]
    private var waiting: Set<UInt64> = []

    /// Whether this thread is running a delivery (a hook called from it is).
    var isDeliveringOnCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return deliverer.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Runs `work` after everything queued before it and returns its result; nil when called from inside a
    /// delivery, which then runs it after the current one.
    func perform(_ work: @escaping Work) -> Result<[HiveDiagnostic], HiveError>? {
        condition.lock()
        defer { condition.unlock() }
        lastTicket += 1
        let ticket = lastTicket
        queue.append((ticket, work))
        if let deliverer {
            if pthread_equal(deliverer, pthread_self()) != 0 { return nil }
            waiting.insert(ticket)
            while finished < ticket && self.deliverer != nil { condition.wait() }
            waiting.remove(ticket)
            if let result = results.removeValue(forKey: ticket) { return result }
        }
        // This thread delivers what is queued, its own work included.
        deliverer = pthread_self()
        var own: Result<[HiveDiagnostic], HiveError> = .success([])
        while !queue.isEmpty {
            let item = queue.removeFirst()
            condition.unlock()
            let result = item.work()
            condition.lock()
            finished = item.ticket
            if item.ticket == ticket {
                own = result
            } else if waiting.contains(item.ticket) {
                results[item.ticket] = result
            }
            condition.broadcast()
        }
        deliverer = nil
        condition.broadcast()
        return own
    }
}
