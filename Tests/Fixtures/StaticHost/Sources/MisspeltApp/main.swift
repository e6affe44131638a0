import BeeHive
import Foundation
import Logging

final class GreeterModule: Module {
    init() {}
}

// MISSPELT_APP_LOG=1 logs to standard error; by default the host, like every library, logs nothing.
let logger = ProcessInfo.processInfo.environment["MISSPELT_APP_LOG"] == nil
    ? Logger(label: "misspelt-app", factory: { _ in SwiftLogNoOpLogHandler() }) : Logger(label: "misspelt-app")
HiveHost(logger: logger).main { hive in print("started with \(hive.registry.records.count) annotations") }
