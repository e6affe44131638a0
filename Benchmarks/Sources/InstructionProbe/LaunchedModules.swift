import BeeHive

/// A module manager keeps one module per type, so launching N modules takes N types: `LaunchedModule` over
/// three decimal digits gives one per number from 0 to 999.
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

/// An asynchronous module whose hooks return at once (the defaults): launching it costs the lifecycle's own
/// work, as in ModuleBenchmarks' `Launch.async-init-returns`.
final class LaunchedModule<A: Digit, B: Digit, C: Digit>: AsyncModule {
    init() {}
}

/// Asynchronous module number `index` (0 to 999).
func makeLaunchedModule(_ index: Int) -> any Module {
    precondition((0..<1000).contains(index), "three digits give 1,000 module types")
    func make<A: Digit, B: Digit, C: Digit>(_: A.Type, _: B.Type, _: C.Type) -> any Module {
        LaunchedModule<A, B, C>()
    }
    let hundreds: any Digit.Type = digits[index / 100]
    let tens: any Digit.Type = digits[index / 10 % 10]
    let units: any Digit.Type = digits[index % 10]
    return make(hundreds, tens, units)
}
