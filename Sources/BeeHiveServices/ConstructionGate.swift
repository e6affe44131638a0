import Foundation

/// Makes sure each cached instance (a singleton, a named instance, a weak one) is created by one thread at a
/// time, and that threads creating instances that need each other fail with a cycle instead of deadlocking.
///
/// A thread that asks for an instance another chain is creating waits for it, unless that chain is itself
/// waiting, directly or through other chains, for an instance this thread's chain is creating: that is a
/// dependency cycle split across threads. A thread that waited for a creation that failed gets its error
/// instead of running the same factory again. Factories run without any lock held.
final class ConstructionGate: @unchecked Sendable {
    // `@unchecked Sendable`: `builders`, `waiters` and every `Build` are only touched with `condition` locked.

    struct Slot: Hashable {
        let registration: ObjectIdentifier
        let name: String?
    }

    /// One creation under way; a class so that its waiters can see how it ended after it left `builders`.
    private final class Build {
        let chain: UInt64
        let service: ServiceKey
        var failure: ServiceError?

        init(chain: UInt64, service: ServiceKey) {
            self.chain = chain
            self.service = service
        }
    }

    private let condition = NSCondition()
    private var builders: [Slot: Build] = [:]
    /// The slot each waiting chain waits for.
    private var waiters: [UInt64: Slot] = [:]

    /// The instance for `slot`: `existing()` if there is one, else what `build()` makes. `build` must store its
    /// result where `existing` finds it before returning.
    func instance(
        for slot: Slot, service: ServiceKey, context: ResolutionContext, existing: () -> InstanceBox?,
        build: () throws(ServiceError) -> InstanceBox
    ) throws(ServiceError) -> InstanceBox {
        condition.lock()
        while true {
            if let instance = existing() {
                condition.unlock()
                return instance
            }
            guard let awaited = builders[slot] else {
                let own = Build(chain: context.chain, service: service)
                builders[slot] = own
                condition.unlock()
                do {
                    let instance = try build()
                    finish(own, at: slot, failure: nil)
                    return instance
                } catch {
                    finish(own, at: slot, failure: error)
                    throw error
                }
            }
            if let cycle = cycle(through: slot, chain: context.chain) {
                condition.unlock()
                throw ServiceError(.cycle(chain: cycle.map(\.description)), resolutionPath: context.pathDescription)
            }
            waiters[context.chain] = slot
            condition.wait()
            waiters[context.chain] = nil
            if let failure = awaited.failure {
                condition.unlock()
                throw ServiceError(failure.kind, resolutionPath: context.pathDescription)
            }
        }
    }

    private func finish(_ build: Build, at slot: Slot, failure: ServiceError?) {
        condition.lock()
        build.failure = failure
        builders[slot] = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Follows "slot is built by chain, which waits for slot, ..." from `slot`; a cycle when it comes back to
    /// `chain`. Returns the services in the cycle, the first repeated at the end.
    private func cycle(through slot: Slot, chain: UInt64) -> [ServiceKey]? {
        var services: [ServiceKey] = []
        var visited: Set<UInt64> = []
        var current = slot
        while let builder = builders[current] {
            services.append(builder.service)
            if builder.chain == chain, let last = services.last { return [last] + services }
            guard visited.insert(builder.chain).inserted, let next = waiters[builder.chain] else { return nil }
            current = next
        }
        return nil
    }
}
