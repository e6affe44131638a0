import BeeHive
import Foundation
import ShopInterfaces

/// `--serve`: runs until SIGTERM or SIGINT, turning SIGHUP, SIGUSR1 and SIGUSR2 into module events meanwhile.
extension ShopRuntime {
    /// The host arms its signal handlers before the first hook runs, and the ready line comes after: a
    /// SIGTERM at any point of the launch ends in willTerminate and tearDown of every module set up.
    func serve() async throws {
        try registerModules()
        try addPluginFolders()
        Story.chapter("Launch: setUp in order, init (Catalog's is async), splash once every init is done")
        try await host.runUntilTerminated { [self] in
            try loadPlugin()
            let pid = ProcessInfo.processInfo.processIdentifier
            Story.chapter("Serving as process \(pid): kill -HUP \(pid) (reload), kill -USR1 \(pid), kill -TERM \(pid) (stop)")
        }
        Story.note("terminated: willTerminate, then tearDown in reverse order")
        try printProfile()
    }

    func openOnly(_ url: String) async throws {
        try registerModules()
        try addPluginFolders()
        try await launch()
        try loadPlugin()
        Story.chapter("Opening \(url)")
        open(url)
        try shutDown()
        try printProfile()
    }
}
