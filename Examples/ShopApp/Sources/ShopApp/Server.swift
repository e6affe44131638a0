import BeeHive
import Foundation
import ShopInterfaces

/// `--serve`: runs until SIGTERM or SIGINT, turning SIGHUP, SIGUSR1 and SIGUSR2 into module events meanwhile.
extension ShopRuntime {
    func serve() async throws {
        try registerModules()
        try await launch()
        try loadPlugin()
        let pid = ProcessInfo.processInfo.processIdentifier
        Story.chapter("Serving as process \(pid): kill -HUP \(pid) (reload), kill -USR1 \(pid), kill -TERM \(pid) (stop)")
        try await host.runUntilTerminated()
        Story.note("terminated: willTerminate, then tearDown in reverse order")
        try printProfile()
    }

    func openOnly(_ url: String) async throws {
        try registerModules()
        try await launch()
        try loadPlugin()
        Story.chapter("Opening \(url)")
        open(url)
        try shutDown()
        try printProfile()
    }
}
