import BeeHiveRegistry
import Testing

@Suite struct PluginTests {
    @Test func missingLibraryIsATypedErrorNamingThePath() {
        #expect {
            try Plugin.load(atPath: "/nonexistent/libNoSuchPlugin.so")
        } throws: { error in
            guard let error = error as? PluginError else { return false }
            return error.path == "/nonexistent/libNoSuchPlugin.so" && error.operation == .load
                && error.description.contains("/nonexistent/libNoSuchPlugin.so") && !error.reason.isEmpty
        }
    }

    @Test func notALibraryIsATypedError() {
        #expect(throws: PluginError.self) { try Plugin.load(atPath: "/etc/hostname") }
    }
}
