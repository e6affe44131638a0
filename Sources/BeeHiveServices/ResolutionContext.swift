import Synchronization

/// One resolution chain: the lookups under way on one thread or task, outermost first.
///
/// Factories get it through their `ServiceResolver`; a factory that calls the manager directly inherits it
/// through the task-local, so a cycle is found either way.
struct ResolutionContext: Sendable {
    @TaskLocal static var current: ResolutionContext?

    private static let chainCounter = Atomic<UInt64>(0)

    /// Tells chains apart when threads wait for each other's singletons.
    let chain: UInt64
    var path: [ServiceKey]

    /// The chain a lookup joins: the enclosing factory's, or a new one.
    static func joined() -> ResolutionContext {
        current ?? ResolutionContext(chain: chainCounter.add(1, ordering: .relaxed).newValue, path: [])
    }

    func appending(_ key: ServiceKey) -> ResolutionContext {
        ResolutionContext(chain: chain, path: path + [key])
    }

    var pathDescription: [String] { path.map(\.description) }
}
