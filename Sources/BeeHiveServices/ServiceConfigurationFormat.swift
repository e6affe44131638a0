/// The formats of service configuration files. Both hold an array of entries such as
/// `{"service": "App.HomeService", "impl": "App.HomeServiceImpl"}`, BeeHive's service plist layout, with
/// optional `scope` (`transient`, `singleton`, `named`, `weak`) and `name`.
public enum ServiceConfigurationFormat: String, Sendable, Hashable, CaseIterable {
    case plist
    case json

    /// The format a file's extension (`plist` or `json`, any case) stands for.
    package init?(pathExtension: String) {
        self.init(rawValue: pathExtension.lowercased())
    }
}
