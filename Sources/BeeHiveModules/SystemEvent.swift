/// The Linux process events that stand in for UIApplication's, plus `openURL` for the router.
///
/// `ProcessEventSource` and `MemoryPressureSource` trigger them from signals and cgroup files; the app may
/// trigger them too.
public enum SystemEvent: String, Sendable, Hashable, CaseIterable {
    /// SIGTERM or SIGINT arrived; tearDown follows.
    case willTerminate
    /// SIGHUP: reread configuration.
    case reload
    /// The process's cgroup reported memory pressure.
    case didReceiveMemoryWarning
    /// SIGUSR1.
    case userSignal1
    /// SIGUSR2.
    case userSignal2
    /// The app was asked to open a URL; the URL is the custom parameter.
    case openURL
}
