@testable import BeeHive
import BeeHiveLocks
import Testing

// The example of docs/services.md ("Injecting with @Injected"), as it is there.
protocol PaymentService: AnyObject, Sendable { func charge(_ cents: Int) throws }
protocol AuditLog: AnyObject, Sendable { func record(_ event: String) }

struct CheckoutHandler: Sendable {
    @Injected var payments: any PaymentService          // the unnamed registration
    @Injected(name: "audit") var audit: any AuditLog     // the one registered under that name

    func charge(_ cents: Int) throws {
        try $payments.resolve().charge(cents)            // throws a ServiceError naming the service if missing
        audit.record("charged \(cents)")                 // stops the process if missing
    }
}

// A module is a final class checked Sendable, where the compiler refuses a property wrapper (its storage is a
// var): declare the wrapper as a constant, and resolve it in a hook, which can throw.
final class CheckoutModule: Module {
    let payments = Injected<any PaymentService>()
    init() {}
    func setUp(_ context: ModuleContext) throws {
        try payments.resolve().charge(0)                 // a missing service fails setUp, naming it
    }
}

/// What the example's services were asked to do.
final class RecordingPayments: PaymentService, AuditLog {
    let events = Locked<[String]>([])
    func charge(_ cents: Int) throws { events.withLock { $0.append("charge \(cents)") } }
    func record(_ event: String) { events.withLock { $0.append(event) } }
}

protocol InjectedGreeting: AnyObject, Sendable {
    var text: String { get }
}

/// A new instance per lookup (transient), so that what a wrapper keeps can be told apart from a new lookup.
final class InjectedEnglish: InjectedGreeting {
    let text: String
    init(_ text: String = "hello") { self.text = text }
}

struct InjectedClock: Sendable { let name: String }
protocol InjectedNeverRegistered: Sendable {}
protocol InjectedSharedOnly: AnyObject, Sendable {}
final class InjectedSharedImplementation: InjectedSharedOnly {}

/// The compiler checks these: a wrapper in a Sendable struct and in an actor, and the constant form in a final
/// class that is checked Sendable, as modules are.
struct InjectedHandler: Sendable {
    @Injected var greeting: any InjectedGreeting
    @Injected(name: "guest") var guest: any InjectedGreeting
}

actor InjectedActor {
    @Injected var greeting: any InjectedGreeting
    func text() -> String { greeting.text }
}

final class InjectedModule: Module {
    static let seen = Locked<[String]>([])
    let greeting = Injected<any InjectedGreeting>()
    init() {}
    func setUp(_ context: ModuleContext) throws {
        let text = try greeting.resolve().text
        Self.seen.withLock { $0.append(text) }
    }
}

@Suite struct InjectedTests {
    static func hive(greeting: String) -> Hive {
        let hive = Hive()
        hive.services.register(InjectedGreeting.self) { _, _ in InjectedEnglish(greeting) }
        return hive
    }

    @Test func theDocumentedExampleRuns() throws {
        let hive = Hive()
        let recording = RecordingPayments()
        hive.services.register(PaymentService.self, scope: .singleton) { _, _ in recording }
        hive.services.register(AuditLog.self, scope: .singleton, name: "audit") { _, _ in recording }
        let handler = hive.withInjection { CheckoutHandler() }
        try handler.charge(250)
        try hive.withInjection {
            try hive.modules.register(CheckoutModule())
            try hive.modules.start()
        }
        #expect(recording.events.withLock { $0 } == ["charge 250", "charged 250", "charge 0"])
        try hive.modules.stop()
    }

    @Test func aModuleWhoseServiceIsMissingFailsItsSetUpNamingTheService() throws {
        let hive = Hive()
        try hive.withInjection {
            try hive.modules.register(CheckoutModule())
            try hive.modules.start()
        }
        let failures = hive.modules.diagnostics.map(\.description).filter { $0.contains("CheckoutModule") }
        #expect(failures.contains { $0.contains("BeeHiveIntegrationTests.PaymentService is not registered") }, "\(failures)")
        try hive.modules.stop()
    }

    @Test func theMessageOfAReadOfAnAsyncServiceSaysHowToReadIt() {
        let hive = Hive()
        hive.services.register(InjectedClock.self) { _, _ in
            try await Task.sleep(for: .milliseconds(1))
            return InjectedClock(name: "async")
        }
        let slot = InjectionSlot(name: nil, hive: hive)
        let error = ServiceError(.notRegistered(service: "BeeHiveIntegrationTests.InjectedClock"))
        #expect(slot.explanation(of: error).contains("has an async factory: read it once with `try await $property.resolveAsync()`"))
        let other = ServiceError(.notRegistered(service: "BeeHiveIntegrationTests.InjectedNeverRegistered"))
        #expect(slot.explanation(of: other) == other.message)
    }

    @Test func looksUpOnFirstReadAndKeepsTheInstance() throws {
        let hive = Self.hive(greeting: "hello")
        let made = Locked(0)
        hive.services.register(InjectedGreeting.self, name: "guest") { _, _ in
            made.withLock { $0 += 1 }
            return InjectedEnglish("welcome")
        }
        let handler = hive.withInjection { InjectedHandler() }
        #expect(made.withLock { $0 } == 0)
        #expect(handler.guest.text == "welcome")
        #expect(handler.guest === handler.guest)
        #expect(try handler.$guest.resolve() === handler.guest)
        #expect(made.withLock { $0 } == 1)
        // Another wrapper makes its own instance of a transient service.
        let other = hive.withInjection { InjectedHandler() }
        #expect(other.guest !== handler.guest)
        #expect(handler.greeting.text == "hello")
    }

    @Test func usesTheHiveBoundWhenTheWrapperWasMadeThenTheOneBoundAtTheFirstRead() throws {
        let first = Self.hive(greeting: "first")
        let second = Self.hive(greeting: "second")
        let madeInFirst = first.withInjection { InjectedHandler() }
        #expect(second.withInjection { madeInFirst.greeting.text } == "first")
        let madeUnbound = InjectedHandler()
        #expect(second.withInjection { madeUnbound.greeting.text } == "second")
        #expect(first.withInjection { madeUnbound.greeting.text } == "second", "the first read is kept")
    }

    @Test func withoutABoundHiveItUsesTheSharedHive() throws {
        Hive.shared.services.register(InjectedSharedOnly.self, scope: .singleton) { _, _ in InjectedSharedImplementation() }
        defer { Hive.shared.services.unregister(InjectedSharedOnly.self) }
        @Injected var shared: any InjectedSharedOnly
        #expect(try $shared.resolve() === Hive.shared.services.resolve(InjectedSharedOnly.self))
    }

    @Test func aMissingServiceIsATypedErrorNamingItAndIsNotKept() throws {
        let hive = Hive()
        let handler = hive.withInjection { InjectedHandler() }
        do {
            _ = try handler.$guest.resolve()
            Issue.record("resolved a service nobody registered under that name")
        } catch {
            #expect(error.kind == .notRegistered(service: "BeeHiveIntegrationTests.InjectedGreeting", name: "guest"))
        }
        let missing = hive.withInjection { Injected<any InjectedNeverRegistered>() }
        do {
            _ = try missing.resolve()
            Issue.record("resolved a service nobody registered")
        } catch {
            #expect(error.message.contains("BeeHiveIntegrationTests.InjectedNeverRegistered"))
            #expect(error.message.contains("register it"))
        }
        hive.services.register(InjectedGreeting.self, name: "guest") { _, _ in InjectedEnglish("late") }
        #expect(try handler.$guest.resolve().text == "late")
    }

    @Test func overridesApplyInsideTheirScopeOnly() async throws {
        let hive = Self.hive(greeting: "real")
        let handler = hive.withInjection { InjectedHandler() }
        let real = handler.greeting
        #expect(real.text == "real")
        let fake = InjectedEnglish("fake")
        await hive.services.withOverrides {
            $0.override(InjectedGreeting.self, with: fake)
        } operation: {
            #expect(handler.greeting === fake)
            // A wrapper first read inside the scope sees the override too, in the tasks the scope starts.
            let fresh = hive.withInjection { InjectedHandler() }
            let text = await Task { fresh.greeting.text }.value
            #expect(text == "fake")
        }
        #expect(handler.greeting === real, "the instance kept before the scope comes back after it")
    }

    @Test func anInstanceKeptInsideAScopeIsNotHandedOutAfterIt() throws {
        let hive = Self.hive(greeting: "real")
        let handler = hive.withInjection { InjectedHandler() }
        hive.services.withOverrides { $0.override(InjectedGreeting.self, with: InjectedEnglish("fake")) } operation: {
            #expect(handler.greeting.text == "fake")
        }
        #expect(handler.greeting.text == "real")
    }

    @Test func resolveAsyncAwaitsAnAsyncFactoryAndThePropertyThenReturnsIt() async throws {
        let hive = Hive()
        hive.services.register(InjectedClock.self, scope: .singleton) { _, _ in
            try await Task.sleep(for: .milliseconds(1))
            return InjectedClock(name: "async")
        }
        let bound = hive.withInjection { Injected<InjectedClock>() }
        #expect(throws: ServiceError.self) { try bound.resolve() }
        #expect(try await bound.resolveAsync().name == "async")
        #expect(bound.wrappedValue.name == "async")
        #expect(try bound.resolve().name == "async")
    }

    @Test func oneInstancePerWrapperUnderConcurrentFirstReads() async throws {
        let hive = Self.hive(greeting: "shared")
        let handler = hive.withInjection { InjectedHandler() }
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<64 { group.addTask { ObjectIdentifier(handler.greeting as AnyObject) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(identities.first == ObjectIdentifier(handler.greeting as AnyObject))
    }

    @Test func anActorsWrapper() async throws {
        let hive = Self.hive(greeting: "from an actor")
        let actor = hive.withInjection { InjectedActor() }
        #expect(await actor.text() == "from an actor")
    }

    @Test func aModuleLooksUpInTheHiveItWasMadeIn() throws {
        let hive = Self.hive(greeting: "module hive")
        _ = Self.hive(greeting: "another hive")
        try hive.withInjection {
            try hive.modules.register(InjectedModule())
            try hive.modules.start()
        }
        #expect(InjectedModule.seen.withLock { $0 } == ["module hive"])
        try hive.modules.stop()
    }
}
