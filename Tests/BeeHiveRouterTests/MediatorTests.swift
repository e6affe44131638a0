@_spi(BeeHiveInternals) import BeeHiveRouter
import Synchronization
import Testing

final class ShopTarget: MediatorTarget {
    struct OutOfStock: Error {}

    enum Action: String { case detail, list, buy, nativeReset }

    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? {
        switch action {
        case .detail: "item \(parameters["id"] ?? "?")"
        case .list: parameters.strings(forKey: "tag")
        case .buy: throw OutOfStock()
        case .nativeReset: true
        }
    }
}

/// A shared instance: CTMediator's cached target.
final class CounterTarget: MediatorTarget, Sendable {
    enum Action: String { case increment }

    let count = Mutex(0)

    init() {}

    func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? {
        switch action {
        case .increment: count.withLock { value in
            value += 1
            return value
        }
        }
    }
}

@Suite struct MediatorTests {
    private func mediator() -> Mediator {
        let mediator = Mediator()
        mediator.register(ShopTarget.self, as: "shop")
        return mediator
    }

    @Test func performsByTargetAndActionName() throws {
        let mediator = mediator()
        #expect(try mediator.perform(target: "shop", action: "detail", parameters: ["id": "42"]) as? String == "item 42")
        #expect(try mediator.perform(target: "shop", action: "detail", parameters: ["id": "7"], as: String.self) == "item 7")
        #expect(mediator.canPerform(target: "shop", action: "list"))
        #expect(!mediator.canPerform(target: "shop", action: "delete"))
        #expect(!mediator.canPerform(target: "cart", action: "list"))
        #expect(mediator.targetNames == ["shop"])
    }

    @Test func performsByURL() throws {
        let mediator = mediator()
        #expect(try mediator.perform(url: "app://shop/detail?id=42") as? String == "item 42")
        #expect(try mediator.perform(url: "app://shop/list?tag=a+b&tag=c%26d") as? [String] == ["a b", "c&d"])
    }

    @Test func unknownTargetAndUnknownActionAreTypedErrors() {
        let mediator = mediator()
        #expect {
            try mediator.perform(target: "cart", action: "list")
        } throws: { error in
            guard case MediatorError.unknownTarget(let target, let action) = error else { return false }
            return target == "cart" && action == "list"
        }
        #expect {
            try mediator.perform(url: "app://shop/delete?id=1")
        } throws: { error in
            guard case MediatorError.unknownAction(let target, let action) = error else { return false }
            return target == "shop" && action == "delete"
        }
        #expect(MediatorError.unknownAction(target: "shop", action: "delete").description.contains("Action enum"))
    }

    @Test func fallbackAnswersMissesAndTellsWhichKind() throws {
        let mediator = mediator()
        mediator.setFallback { miss in
            switch miss {
            case .unknownTarget(let target, _, _): "no target \(target)"
            case .unknownAction(let target, let action, let parameters): "no \(action) in \(target) for \(parameters["id"] ?? "-")"
            }
        }
        #expect(try mediator.perform(target: "cart", action: "list") as? String == "no target cart")
        #expect(try mediator.perform(url: "app://shop/delete?id=5") as? String == "no delete in shop for 5")
        #expect(try mediator.perform(target: "shop", action: "detail", parameters: ["id": "1"]) as? String == "item 1")
        mediator.setFallback(nil)
        #expect(throws: MediatorError.self) { try mediator.perform(target: "cart", action: "list") }
    }

    @Test func failingActionsAreWrapped() {
        let mediator = mediator()
        #expect {
            try mediator.perform(target: "shop", action: "buy")
        } throws: { error in
            guard case MediatorError.actionFailed(let target, let action, let underlying) = error else { return false }
            return target == "shop" && action == "buy" && underlying is ShopTarget.OutOfStock
        }
        #expect {
            try mediator.perform(target: "shop", action: "detail", as: Int.self)
        } throws: { error in
            guard case MediatorError.unexpectedResult(_, _, let expected, let actual) = error else { return false }
            return expected == "Int" && actual == "String"
        }
    }

    @Test func localOnlyActionsAreRefusedThroughURLs() throws {
        let mediator = mediator()
        #expect {
            try mediator.perform(url: "app://shop/nativeReset")
        } throws: { error in
            guard case MediatorError.localOnlyAction(_, let action, let prefix) = error else { return false }
            return action == "nativeReset" && prefix == "native"
        }
        #expect(try mediator.perform(target: "shop", action: "nativeReset") as? Bool == true)

        let open = Mediator(localOnlyActionPrefix: nil)
        open.register(ShopTarget.self, as: "shop")
        #expect(try open.perform(url: "app://shop/nativeReset") as? Bool == true)
    }

    @Test(arguments: ["shop/detail", "app://shop", "app://shop/detail/extra", "app://shop#/detail", "other://shop/detail"])
    func malformedURLsAreRefused(url: String) {
        let mediator = Mediator(scheme: "app")
        mediator.register(ShopTarget.self, as: "shop")
        #expect {
            try mediator.perform(url: url)
        } throws: { error in
            guard case MediatorError.invalidURL(let failed, _) = error else { return false }
            return failed == url
        }
    }

    @Test func sharedInstancesKeepState() throws {
        let mediator = Mediator()
        let counter = CounterTarget()
        mediator.register(counter, as: "counter")
        #expect(try mediator.perform(target: "counter", action: "increment", as: Int.self) == 1)
        #expect(try mediator.perform(url: "x://counter/increment") as? Int == 2)
        #expect(counter.count.withLock { $0 } == 2)
    }

    @Test func laterCodeRegistrationWins() throws {
        let mediator = mediator()
        mediator.register(CounterTarget.self, as: "shop")
        #expect(mediator.canPerform(target: "shop", action: "increment"))
        mediator.removeTarget(named: "shop")
        #expect(!mediator.canPerform(target: "shop", action: "detail"))
    }
}
