import BeeHiveLocks
import Dispatch

/// Runs an asynchronous hook under a time limit: past the limit the hook's task is cancelled and the caller
/// goes on without waiting for it to notice, so one hook that ignores cancellation cannot hold up a launch or
/// a shutdown.
///
/// The hook runs in a task of its own (which inherits task-locals and priority) because a child task could not
/// be left behind: its group would wait for it. Cancelling the caller cancels the hook.
enum TimeLimit {
    enum Outcome: Sendable {
        case finished((any Error)?)
        case timedOut
    }

    private static let timers = DispatchQueue(label: "beehive.modules.time-limit")

    static func run(
        _ limit: Duration?, _ operation: @escaping @Sendable () async throws -> Void
    ) async -> Outcome {
        guard let limit else {
            do {
                try await operation()
                return .finished(nil)
            } catch {
                return .finished(error)
            }
        }
        let race = Race()
        let task = Task {
            do {
                try await operation()
                race.finish(.finished(nil))
            } catch {
                race.finish(.finished(error))
            }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.wait(continuation)
                timers.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: limit.nanoseconds))) { [weak race] in
                    race?.finish(.timedOut)
                }
            }
        } onCancel: {
            task.cancel()
        }
        if case .timedOut = outcome { task.cancel() }
        return outcome
    }

    /// Whichever of the hook and the timer finishes first resumes the caller; the other is ignored.
    private final class Race: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            var outcome: Outcome?
        }

        private let state = Locked(State())

        func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
            let outcome = state.withLock { state -> Outcome? in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }

        func finish(_ outcome: Outcome) {
            let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: outcome)
        }
    }
}
