/// Why `HiveObserver.bootstrap(_:)` refused an observer.
public enum HiveObserverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An observer is already in place for this process; bootstrap once, at startup.
    case alreadyBootstrapped

    public var description: String {
        switch self {
        case .alreadyBootstrapped:
            "an observer is already bootstrapped: call HiveObserver.bootstrap(_:) once, at startup"
        }
    }
}
