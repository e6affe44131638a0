@testable import BeeHive
import BeeHiveLocks
import Foundation
import Testing

@Suite struct HiveBootstrapTests {
    /// The closure given to `Hive.bootstrap` runs outside the bootstrap's lock: one that calls `bootstrap`
    /// again is refused, and returns. A bootstrap of its own, since `Hive.shared` is made once per process.
    @Test func aBootstrapClosureCallingBootstrapReturns() {
        let bootstrap = HiveBootstrap()
        let refused = Locked(false)
        #expect(throws: Never.self) {
            try bootstrap.bootstrap {
                do throws(HiveError) {
                    try bootstrap.bootstrap { Hive() }
                } catch .alreadyBootstrapped {
                    refused.withLock { $0 = true }
                } catch {}
                return Hive()
            }
        }
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = bootstrap.makeShared()
            done.signal()
        }.start()
        // A time limit, not a timing: on a deadlock that thread stays blocked, not the test.
        #expect(done.wait(timeout: .now() + 30) == .success, "the bootstrap closure ran under the lock")
        #expect(refused.withLock { $0 })
    }
}
