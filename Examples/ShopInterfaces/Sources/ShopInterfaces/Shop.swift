import BeeHive
import Synchronization

/// The app's hive, as its modules, route handlers and plugins reach it (BeeHive's `[BeeHive shareInstance]`).
///
/// `Hive.shared` is made with default managers, which log nothing and keep no time profile. The app makes its
/// own hive in `main`, after bootstrapping logging, with its loggers and the profiler on, and installs it here
/// before anything registers; since this library is loaded once, the plugin sees the same hive.
public enum Shop {
    private static let installed = Mutex<Hive?>(nil)

    /// Makes `hive` the app's hive. Call once, before registering modules.
    public static func install(_ hive: Hive) {
        installed.withLock { current in
            precondition(current == nil, "Shop.install(_:) was called twice")
            current = hive
        }
    }

    /// The hive installed by the app.
    public static var hive: Hive {
        guard let hive = installed.withLock({ $0 }) else {
            preconditionFailure("the app must call Shop.install(_:) before its modules run")
        }
        return hive
    }
}
