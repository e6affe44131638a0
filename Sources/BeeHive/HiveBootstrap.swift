import BeeHiveLocks

/// How `Hive.shared` is made: the app's closure from `Hive.bootstrap(_:)`, or defaults. Its own type so that a
/// test can make one and bootstrap it more than once in a process.
final class HiveBootstrap: Sendable {
    private struct State {
        var make: (@Sendable () -> Hive)?
        var isShared = false
    }

    private let state = Locked(State())

    func bootstrap(_ make: @escaping @Sendable () -> Hive) throws(HiveError) {
        try state.withLock { state throws(HiveError) in
            guard !state.isShared else { throw .alreadyBootstrapped }
            state.make = make
        }
    }

    /// Refuses later bootstraps, then makes the hive.
    func makeShared() -> Hive {
        let make = state.withLock { state in
            state.isShared = true
            return state.make
        }
        // Outside the lock: `make` is the app's code, which may call `bootstrap(_:)` (and be refused).
        return make?() ?? Hive()
    }
}
