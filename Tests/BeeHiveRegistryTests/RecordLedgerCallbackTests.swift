@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// A third party's consumer whose `consumes` asks its own ledger what waits.
final class LedgerAskingConsumer: RecordConsumer {
    let ledger = RecordLedger<LedgerAskingConsumer>()

    func consumes(_ record: AnnotationRecord) -> Bool { ledger.pendingRecords.isEmpty }
    func register(_ records: [AnnotationRecord]) -> [RecordOutcome<Int, String>] { records.map { _ in .registered(1) } }
    func unregister(_ tokens: [Int]) -> [String] { [] }
}

@Suite struct RecordLedgerCallbackTests {
    /// The ledger asks `consumes` outside its lock, as its doc comment says of every call into the consumer.
    @Test func aConsumerCallingBackIntoItsLedgerReturns() {
        let consumer = LedgerAskingConsumer()
        let record = AnnotationRecord(
            payload: .target(TargetAnnotation(name: "target1", typeName: "App.Target")), text: "beehive:1|target|target1|App.Target",
            origin: RecordOrigin(objectPath: "/app", section: SectionName.routes, offset: 0))
        let done = DispatchSemaphore(value: 0)
        Thread {
            consumer.ledger.register([record], to: consumer)
            consumer.ledger.unregister([record], from: consumer)
            done.signal()
        }.start()
        // A time limit, not a timing: on a deadlock that thread stays blocked, not the test.
        #expect(done.wait(timeout: .now() + 30) == .success, "consumes ran under the ledger's lock")
    }
}
