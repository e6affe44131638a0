@_spi(BeeHiveInternals) import BeeHiveModules
import Dispatch
import Testing

@Suite struct ConcurrencyTests {
    /// Dispatches, registrations, unregistrations and handler changes from several threads at once: every
    /// module still gets its hooks in lifecycle order, and nothing is lost or doubled. Also run under TSan.
    @Test func everythingAtOnceFromManyThreads() async throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self, level: .basic)
        try manager.register(BetaModule.self, isAsync: true)
        try manager.register(CheckoutListenerModule.self)
        try manager.start()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<200 { try? manager.trigger(.reload) }
                }
            }
            group.addTask {
                for _ in 0..<50 {
                    try? manager.register(LateModule.self)
                    try? manager.unregister(LateModule.self)
                }
            }
            group.addTask {
                for index in 0..<200 { try? manager.trigger(ShopEvents.checkout, customParameter: "order-\(index)") }
            }
        }
        try await manager.waitForLaunch()

        #expect(recorder.modules(receiving: .reload).filter { $0 == "AlphaModule" }.count == 400)
        #expect(recorder.all.filter { $0.hasPrefix("CheckoutListenerModule.1001.order-") }.count == 200)
        let late = recorder.all.filter { $0.hasPrefix("LateModule.") }
        #expect(late.filter { $0 == "LateModule.setUp" }.count == 50)
        #expect(late.filter { $0 == "LateModule.unmount" }.count == 50)
        // Each instance: setUp, init, splash, then tearDown and unmount; reloads may come in between.
        let lifecycle = late.filter { !$0.hasSuffix(".reload") }
        #expect(lifecycle.count == 250)
        for round in stride(from: 0, to: lifecycle.count, by: 5) {
            #expect(Array(lifecycle[round..<round + 5]) == [
                "LateModule.setUp", "LateModule.init", "LateModule.splash", "LateModule.tearDown", "LateModule.unmount",
            ])
        }
    }
}
