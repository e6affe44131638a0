import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

protocol TaskStarter: AnyObject, Sendable {}

final class TaskNode: TaskStarter, @unchecked Sendable {}

/// A factory that starts a task which resolves services later: the task is not part of the factory's chain.
@Suite struct FactoryTaskTests {
    @Test func aTaskStartedInAFactoryResolvesOnAChainOfItsOwn() async throws {
        let manager = ServiceManager()
        let tasks = Locked<[Task<Bool, Never>]>([])
        let factoryReturned = Locked(false)
        // Unowned: the manager keeps its factory, and the test awaits the tasks before it ends.
        manager.register(TaskStarter.self, scope: .singleton) { [unowned manager] resolver, _ in
            guard tasks.withLock({ $0.isEmpty }) else { return TaskNode() }
            // Once the factory has returned and its instance is dropped, each task resolves the service again,
            // which runs the factory again: both ways a factory can reach the manager, directly (the task-local
            // chain) and through its resolver.
            let direct = Task {
                while !factoryReturned.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                manager.discardInstances(of: TaskStarter.self)
                return (try? manager.resolve(TaskStarter.self)) != nil
            }
            let kept = Task {
                while !factoryReturned.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                manager.discardInstances(of: TaskStarter.self)
                return (try? resolver.resolve(TaskStarter.self)) != nil
            }
            tasks.withLock { $0 = [direct, kept] }
            return TaskNode()
        }
        _ = try manager.resolve(TaskStarter.self)
        factoryReturned.withLock { $0 = true }
        for task in tasks.withLock({ $0 }) {
            #expect(await task.value, "a later lookup from a task the factory started reported a cycle")
        }
    }
}
