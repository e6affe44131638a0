@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// Runs `body` on a thread of its own and waits up to `seconds` for it to return: false when it did not (a
/// deadlock), which leaves that thread blocked rather than the test.
func returns(within seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// The manager `CallingBackDependenciesModule.dependencies` reads: a static property has no context.
let callingBackManager = ModuleManager()

/// Its `dependencies` getter calls into the manager registering it.
final class CallingBackDependenciesModule: Module {
    static var dependencies: [ModuleDependency] {
        _ = callingBackManager.modules
        return []
    }

    init() {}
}

final class PlainEventModule: Module {
    init() {}
}

/// Calls back into its manager or store as it goes: code the library must not run under its own lock.
final class CallsBackOnDeinit: Sendable {
    let callBack: @Sendable () -> Void
    init(_ callBack: @escaping @Sendable () -> Void) { self.callBack = callBack }
    deinit { callBack() }
}

/// User code that calls back into the object running it returns: no library lock is held meanwhile.
@Suite struct CallbackUnderLockTests {
    static let deinitKey = ConfigKey<Int>("deinit.ran")
    static let valueKey = ConfigKey<CallsBackOnDeinit>("value")

    /// A module arriving by record after start is checked for missing dependencies, which reads its
    /// `dependencies`.
    @Test func aDependenciesGetterCallingBackIntoTheManagerReturns() throws {
        try callingBackManager.start()
        let update = annotationUpdate([ModuleAnnotation(typeName: "BeeHiveModulesTests.CallingBackDependenciesModule")])
        guard returns({ _ = callingBackManager.apply(update) }) else {
            Issue.record("a module's dependencies were read under the manager's lock")
            return
        }
        #expect(callingBackManager.modules.map(\.name) == [CallingBackDependenciesModule.moduleName])
    }

    @Test func aHandlerReleasedByRemoveHandlersMayCallBackIntoTheManager() throws {
        let manager = ModuleManager()
        let module = PlainEventModule()
        try manager.register(module)
        let event = CustomEvent(offset: 7)
        // Made in the capture list, so that the handler holds the only reference.
        try manager.addHandler(for: event, module: module) { [capture = CallsBackOnDeinit { _ = manager.modules }] _ in
            _ = capture
        }
        #expect(returns { manager.removeHandlers(for: event, module: module) })
    }

    /// Each way a value leaves the store: replaced, set to nil, removed, merged over, all removed.
    @Test func aConfigValueReleasedByTheStoreMayUseTheStore() {
        let store = ConfigStore()
        let ways: [(String, @Sendable () -> Void)] = [
            ("replaced", { store[Self.valueKey] = CallsBackOnDeinit {} }),
            ("set to nil", { store[Self.valueKey] = nil }),
            ("removed", { store.removeValue(for: Self.valueKey) }),
            ("merged over", { store.merge([Self.valueKey.name: 0]) }),
            ("all removed", { store.removeAll() }),
        ]
        for (way, release) in ways {
            store[Self.deinitKey] = 0
            store[Self.valueKey] = CallsBackOnDeinit { store[Self.deinitKey] = 1 }
            guard returns(release) else {
                Issue.record("a value's deinit using the store did not return when the value was \(way)")
                return
            }
            #expect(store[Self.deinitKey] == 1, "the value's deinit did not run when it was \(way)")
        }
    }
}
