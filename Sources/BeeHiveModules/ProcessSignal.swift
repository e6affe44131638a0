#if canImport(Glibc)
import Glibc
#endif

/// The signals `ProcessEventSource` turns into module events.
public enum ProcessSignal: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SIGTERM: willTerminate, then tearDown.
    case terminate
    /// SIGINT (Ctrl-C): willTerminate, then tearDown.
    case interrupt
    /// SIGHUP: reload.
    case hangUp
    /// SIGUSR1: userSignal1.
    case user1
    /// SIGUSR2: userSignal2.
    case user2

    public var number: Int32 {
        switch self {
        case .terminate: SIGTERM
        case .interrupt: SIGINT
        case .hangUp: SIGHUP
        case .user1: SIGUSR1
        case .user2: SIGUSR2
        }
    }

    /// The system event the signal is delivered as.
    public var event: SystemEvent {
        switch self {
        case .terminate, .interrupt: .willTerminate
        case .hangUp: .reload
        case .user1: .userSignal1
        case .user2: .userSignal2
        }
    }

    public var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangUp: "SIGHUP"
        case .user1: "SIGUSR1"
        case .user2: "SIGUSR2"
        }
    }
}
