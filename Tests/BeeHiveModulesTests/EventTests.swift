@_spi(BeeHiveInternals) import BeeHiveModules
import Foundation
import Testing

final class ShopEvents {
    static let checkout = try! CustomEvent(1001)
    static let refund = try! CustomEvent(1002)
}

/// Registers a handler for the checkout event during setUp, as BeeHive modules do.
final class CheckoutListenerModule: Recording {
    func setUp(_ context: ModuleContext) throws {
        record(context)
        try context.manager.addHandler(for: ShopEvents.checkout, module: self) { context in
            let order = context.customParameter(as: String.self) ?? "none"
            context.config[Recorder.key]?.append("CheckoutListenerModule.\(context.customEvent!.value).\(order)")
        }
    }
}

final class SecondCheckoutListenerModule: Recording {
    func setUp(_ context: ModuleContext) throws {
        try context.manager.addHandler(for: ShopEvents.checkout, module: self) { context in
            context.config[Recorder.key]?.append("SecondCheckoutListenerModule.\(context.event)")
        }
    }
}

@Suite struct EventTests {
    @Test func customEventsStartAt1000() throws {
        #expect(try CustomEvent(1000).value == 1000)
        #expect(try CustomEvent(4242).value == 4242)
        #expect { try CustomEvent(999) } throws: { error in
            guard case ModuleError.invalidCustomEvent(999) = error else { return false }
            return "\(error)".contains("from 1000")
        }
        #expect(throws: ModuleError.self) { try CustomEvent(-1) }
    }

    @Test func customEventReachesHandlersInModuleOrderWithItsParameter() throws {
        let (manager, recorder) = makeManager()
        try manager.register(SecondCheckoutListenerModule.self, priority: 1)
        try manager.register(CheckoutListenerModule.self, priority: 2)
        try manager.register(AlphaModule.self)
        try manager.start()
        try manager.trigger(ShopEvents.checkout, customParameter: "order-17")
        try manager.trigger(ShopEvents.refund, customParameter: "order-17")
        #expect(recorder.all.filter { $0.contains("1001") } == [
            "CheckoutListenerModule.1001.order-17", "SecondCheckoutListenerModule.custom(1001)",
        ])
        try manager.unregister(CheckoutListenerModule.self)
        try manager.trigger(ShopEvents.checkout)
        #expect(recorder.all.last == "SecondCheckoutListenerModule.custom(1001)")
        #expect(recorder.all.filter { $0.hasPrefix("CheckoutListenerModule.1001") }.count == 1)
    }

    @Test func handlerNeedsARegisteredModule() {
        let (manager, _) = makeManager()
        #expect {
            try manager.addHandler(for: ShopEvents.checkout, module: AlphaModule()) { _ in }
        } throws: { error in
            if case ModuleError.notRegistered(let module) = error { return module == "BeeHiveModulesTests.AlphaModule" }
            return false
        }
    }

    @Test func removedHandlersAreNotCalled() throws {
        let (manager, recorder) = makeManager()
        try manager.register(SecondCheckoutListenerModule.self)
        try manager.start()
        let module = try #require(manager.module(SecondCheckoutListenerModule.self))
        manager.removeHandlers(for: ShopEvents.checkout, module: module)
        try manager.trigger(ShopEvents.checkout)
        #expect(recorder.modules(receiving: .custom(ShopEvents.checkout)).isEmpty)
    }

    @Test(arguments: SystemEvent.allCases)
    func systemEventsReachTheirHooksWithTheParameter(event: SystemEvent) throws {
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.register(ParameterModule.self)
        try manager.start()
        let url = URL(string: "shop://user/17")!
        try manager.trigger(event, customParameter: url)
        #expect(recorder.modules(receiving: .system(event)) == ["AlphaModule"])
        #expect(recorder.all.last == "ParameterModule.\(event).shop://user/17")
    }
}

final class ParameterModule: Module {
    private func note(_ context: ModuleContext) {
        let url = context.customParameter(as: URL.self)?.absoluteString ?? "-"
        context.config[Recorder.key]?.append("ParameterModule.\(context.event).\(url)")
    }

    func willTerminate(_ context: ModuleContext) throws { note(context) }
    func reload(_ context: ModuleContext) throws { note(context) }
    func didReceiveMemoryWarning(_ context: ModuleContext) throws { note(context) }
    func didReceiveUserSignal(_ context: ModuleContext) throws { note(context) }
    func openURL(_ context: ModuleContext) throws { note(context) }
}
