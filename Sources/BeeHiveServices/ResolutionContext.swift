import Synchronization

/// One resolution chain: the lookups under way on one thread or task, outermost first.
///
/// Factories get it through their `ServiceResolver`; a factory that calls the manager directly inherits it
/// through the task-local, so a cycle is found either way. A chain is only joined while its factory runs: a
/// `Task` the factory starts inherits the task-local (or keeps the resolver), and once the factory has
/// returned it resolves on a chain of its own, so it cannot report a cycle that is not there.
struct ResolutionContext: Sendable {
    @TaskLocal static var current: ResolutionContext?

    private static let chainCounter = Atomic<UInt64>(0)

    /// Tells chains apart when threads wait for each other's singletons.
    let chain: UInt64
    var path: [ServiceKey]
    /// The factory run the chain is in; nil at the outermost lookup.
    var run: FactoryRun?

    /// The chain a lookup joins: the enclosing factory's, or a new one.
    static func joined() -> ResolutionContext {
        if let current, current.isLive { return current }
        return fresh()
    }

    static func fresh() -> ResolutionContext {
        ResolutionContext(chain: chainCounter.add(1, ordering: .relaxed).newValue, path: [], run: nil)
    }

    /// Whether lookups made now may join this chain: its factory is still running.
    var isLive: Bool {
        run?.isRunning ?? true
    }

    func appending(_ key: ServiceKey) -> ResolutionContext {
        ResolutionContext(chain: chain, path: path + [key], run: run)
    }

    var pathDescription: [String] { path.map(\.description) }
}

/// One call of a factory or initializer, while it runs.
final class FactoryRun: Sendable {
    private let running = Atomic<Bool>(true)

    var isRunning: Bool {
        running.load(ordering: .acquiring)
    }

    func finish() {
        running.store(false, ordering: .releasing)
    }
}
