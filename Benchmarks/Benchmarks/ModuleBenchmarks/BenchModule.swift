import BeeHive
import Synchronization

/// The module manager keeps one module per type, so 10,000 modules need 10,000 types: `BenchModule` over four
/// decimal digits gives one type per number from 0 to 9,999.
protocol Digit: SendableMetatype {}
enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}
enum D8: Digit {}
enum D9: Digit {}

let digits: [any Digit.Type] = [D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self]

/// Counts the events a module got, with a plain load and store (one thread dispatches): the cheapest work a
/// hook can do that the benchmark can still check.
final class HitCounter: Sendable {
    private let hits = Atomic<Int>(0)

    func touch() { hits.store(hits.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }

    var count: Int { hits.load(ordering: .relaxed) }
}

final class BenchModule<A: Digit, B: Digit, C: Digit, D: Digit>: Module {
    let counter = HitCounter()

    init() {}

    func reload(_ context: ModuleContext) throws { counter.touch() }
}

/// Module number `index` (0 to 9,999), and its counter.
func makeModule(_ index: Int) -> (module: any Module, counter: HitCounter) {
    func make<A: Digit, B: Digit, C: Digit, D: Digit>(
        _: A.Type, _: B.Type, _: C.Type, _: D.Type
    ) -> (any Module, HitCounter) {
        let module = BenchModule<A, B, C, D>()
        return (module, module.counter)
    }
    let thousands: any Digit.Type = digits[index / 1000 % 10]
    let hundreds: any Digit.Type = digits[index / 100 % 10]
    let tens: any Digit.Type = digits[index / 10 % 10]
    let units: any Digit.Type = digits[index % 10]
    return make(thousands, hundreds, tens, units)
}

/// How long each `SleepingBenchModule` init sleeps.
let initSleepKey = ConfigKey<Duration>("bench.initSleep")

/// A module whose init is asynchronous and awaits a sleep, the way a module awaits a connection.
final class SleepingBenchModule<A: Digit, B: Digit, C: Digit, D: Digit>: AsyncModule {
    init() {}

    func initialize(_ context: ModuleContext) async throws {
        try await Task.sleep(for: context.config[initSleepKey] ?? .zero)
    }
}

/// An asynchronous module whose hooks return at once (the defaults): what launching it costs is the
/// lifecycle's own work.
final class IdleBenchModule<A: Digit, B: Digit, C: Digit, D: Digit>: AsyncModule {
    init() {}
}

/// Asynchronous module number `index` (0 to 9,999): one that sleeps in init, or one whose init returns at once.
func makeAsyncModule(_ index: Int, sleeps: Bool) -> any Module {
    func make<A: Digit, B: Digit, C: Digit, D: Digit>(_: A.Type, _: B.Type, _: C.Type, _: D.Type) -> any Module {
        sleeps ? SleepingBenchModule<A, B, C, D>() : IdleBenchModule<A, B, C, D>()
    }
    let thousands: any Digit.Type = digits[index / 1000 % 10]
    let hundreds: any Digit.Type = digits[index / 100 % 10]
    let tens: any Digit.Type = digits[index / 10 % 10]
    let units: any Digit.Type = digits[index % 10]
    return make(thousands, hundreds, tens, units)
}
