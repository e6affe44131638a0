import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveServices
import Synchronization
import Testing

final class ConnectionPool: AccountService {
    let user: String

    init(user: String) {
        self.user = user
    }
}

struct FakeAccountService: AccountService {
    let user = "fake"
}

final class FakeHomeService: HomeService {
    let title = "fake home"
}

@Suite struct AsyncServiceTests {
    @Test func anAsyncFactoryIsResolvedWithAwait() async throws {
        let manager = ServiceManager()
        manager.register(AccountService.self) { _, _ in
            try await Task.sleep(for: .milliseconds(1))
            return ConnectionPool(user: "awaited")
        }
        let account = try await manager.resolveAsync(AccountService.self)
        #expect(account.user == "awaited")
    }

    @Test func sixtyFourTasksAwaitingTheSameAsyncSingletonCreateItOnce() async throws {
        let manager = ServiceManager()
        let made = Atomic(0)
        manager.register(HomeService.self, scope: .singleton) { _, _ in
            made.add(1, ordering: .relaxed)
            // Long enough that every task asks while the first one is still making it.
            try await Task.sleep(for: .milliseconds(50))
            return HomeServiceImpl()
        }
        let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<64 {
                group.addTask { ObjectIdentifier(try await manager.resolveAsync(HomeService.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(instances.count == 1)
    }

    @Test func aFailingAsyncFactoryMakesNothingAndTheNextLookupTriesAgain() async throws {
        let manager = ServiceManager()
        let attempts = Atomic(0)
        manager.register(HomeService.self, scope: .singleton) { _, _ in
            if attempts.add(1, ordering: .relaxed).newValue == 1 { throw ServiceFactoryError() }
            return HomeServiceImpl()
        }
        await #expect {
            _ = try await manager.resolveAsync(HomeService.self)
        } throws: { error in
            guard let error = error as? ServiceError, case .creationFailed(let service, _, let reason) = error.kind else {
                return false
            }
            return service.hasSuffix("HomeService") && reason == "backend unreachable"
        }
        #expect(try await manager.resolveAsync(HomeService.self).title == "home")
        #expect(attempts.load(ordering: .relaxed) == 2)
    }

    @Test func anAsyncFactoryAwaitsItsAsyncDependencies() async throws {
        let manager = ServiceManager()
        manager.register(AccountService.self, scope: .singleton) { _, _ in
            await Task.yield()
            return ConnectionPool(user: "db")
        }
        manager.register(HomeService.self) { resolver, _ in
            let account = try await resolver.resolveAsync(AccountService.self)
            return TitledHome(title: "home of \(account.user)")
        }
        #expect(try await manager.resolveAsync(HomeService.self).title == "home of db")
    }

    @Test func anAsyncCycleIsReportedNotAwaitedForever() async throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, scope: .singleton) { resolver, _ in
            _ = try await resolver.resolveAsync(AccountService.self)
            return HomeServiceImpl()
        }
        manager.register(AccountService.self, scope: .singleton) { resolver, _ in
            _ = try await resolver.resolveAsync(HomeService.self)
            return AccountServiceImpl()
        }
        await #expect {
            _ = try await manager.resolveAsync(HomeService.self)
        } throws: { error in
            guard let error = error as? ServiceError, case .cycle(let chain) = error.kind else { return false }
            return chain.count == 3 && chain.first == chain.last
        }
    }

    @Test func resolveAsyncFallsBackToSynchronousRegistrations() async throws {
        let manager = ServiceManager()
        manager.register(AccountService.self, implementation: AccountServiceImpl.self, scope: .singleton)
        #expect(try await manager.resolveAsync(AccountService.self).user == "ann")
    }
}

/// Waits for `latch`, looks the account service up, then opens `done`.
private func userSeen(by manager: ServiceManager, after latch: Latch, then done: Latch) async throws -> String {
    _ = await latch.wait()
    defer { done.open() }
    return try manager.resolve(AccountService.self).user
}

struct ServiceFactoryError: Error, CustomStringConvertible {
    var description: String { "backend unreachable" }
}

final class TitledHome: HomeService {
    let title: String

    init(title: String) {
        self.title = title
    }
}

@Suite struct ServiceOverrideTests {
    @Test func anOverrideIsSeenInsideTheScopeAndNowhereElse() async throws {
        let manager = ServiceManager()
        manager.register(AccountService.self, implementation: AccountServiceImpl.self, scope: .singleton)
        #expect(try manager.resolve(AccountService.self).user == "ann")
        let inside = Latch()
        let outsideChecked = Latch()
        async let outside = userSeen(by: manager, after: inside, then: outsideChecked)
        try await manager.withOverrides {
            $0.override(AccountService.self, with: FakeAccountService())
        } operation: { () async throws in
            #expect(try manager.resolve(AccountService.self).user == "fake")
            #expect(try await manager.resolveAsync(AccountService.self).user == "fake")
            // A task started inside inherits the scope.
            #expect(try await Task { try manager.resolve(AccountService.self).user }.value == "fake")
            inside.open()
            // Another task asking at the same time, outside the scope, gets the app's service.
            _ = await outsideChecked.wait()
        }
        #expect(try await outside == "ann")
        #expect(try manager.resolve(AccountService.self).user == "ann")
        #expect(manager.registrations.count == 1)
    }

    @Test func factoriesInsideTheScopeGetTheOverrideAndWhatTheyMakeStaysThere() throws {
        let manager = ServiceManager()
        manager.register(AccountService.self, implementation: AccountServiceImpl.self)
        manager.register(HomeService.self, implementation: InjectedHomeService.self, scope: .singleton)
        let inside = try manager.withOverrides {
            $0.override(AccountService.self, with: FakeAccountService())
        } operation: { () throws in
            try manager.resolve(HomeService.self).title
        }
        #expect(inside == "injected for fake")
        // The singleton made inside was made with the override: the app never sees it.
        #expect(try manager.resolve(HomeService.self).title == "injected for ann")
    }

    @Test func scopesNestAndTheInnerOneWins() throws {
        let manager = ServiceManager()
        manager.register(HomeService.self, implementation: HomeServiceImpl.self)
        manager.register(AccountService.self, implementation: AccountServiceImpl.self)
        try manager.withOverrides {
            $0.override(HomeService.self, with: FakeHomeService())
            $0.override(AccountService.self, with: FakeAccountService())
        } operation: { () throws in
            try manager.withOverrides {
                $0.override(HomeService.self, with: TitledHome(title: "inner"))
            } operation: { () throws in
                #expect(try manager.resolve(HomeService.self).title == "inner")
                #expect(try manager.resolve(AccountService.self).user == "fake")
            }
            #expect(try manager.resolve(HomeService.self).title == "fake home")
        }
    }

    @Test func anOverrideOfOneManagerLeavesAnotherAlone() throws {
        let first = ServiceManager()
        let second = ServiceManager()
        first.register(AccountService.self, implementation: AccountServiceImpl.self)
        second.register(AccountService.self, implementation: AccountServiceImpl.self)
        try first.withOverrides {
            $0.override(AccountService.self, with: FakeAccountService())
        } operation: { () throws in
            #expect(try first.resolve(AccountService.self).user == "fake")
            #expect(try second.resolve(AccountService.self).user == "ann")
        }
    }
}

/// A one-shot flag tasks await (no hang guard needed: every test opens what it waits for).
final class Latch: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
        return true
    }
}
