import BeeHiveLocks

/// One registered module instance and where it is in its lifecycle.
///
/// Lifecycle hooks of one module never overlap: a step first claims the entry, runs its hook outside every
/// lock, then releases it. A tearDown or unmount requested while the entry is claimed is carried out by
/// the claimer as soon as its hook returns.
final class ModuleEntry: Sendable {
    enum Stage: Int, Comparable {
        case registered, setUp, initialized, splashed, tornDown, unmounted

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The hooks a retirement still owes the module.
    struct Retirement {
        var tearDown: Bool
        var unmount: Bool
    }

    private struct Life {
        var stage: Stage = .registered
        var isClaimed = false
        /// A retirement asked for while claimed; true when it includes unmount.
        var pendingRetirement: Bool?
        var initOutcome: Bool?
        var initWaiters: [@Sendable (_ failed: Bool) -> Void] = []
    }

    let module: any Module
    /// The module again when its hooks may suspend: looked up once, not on every call.
    let asyncModule: (any AsyncModule)?
    let descriptor: ModuleDescriptor
    let typeID: ObjectIdentifier
    let hookTimeLimit: Duration?
    let failureBehavior: ModuleFailureBehavior
    private let life = Locked(Life())

    init(module: any Module, descriptor: ModuleDescriptor) {
        self.module = module
        self.asyncModule = Self.asyncView(of: module)
        self.descriptor = descriptor
        let type = type(of: module)
        self.typeID = ObjectIdentifier(type)
        self.hookTimeLimit = type.hookTimeLimit
        self.failureBehavior = type.failureBehavior
    }

    /// The witness answers for a class that conforms itself. A subclass inherits its superclass's `Module`
    /// witness even when it adds `AsyncModule`, so only a subclass pays for the conformance lookup.
    private static func asyncView(of module: any Module) -> (any AsyncModule)? {
        if let asyncModule = module._asyncModule { return asyncModule }
        guard _getSuperclass(type(of: module)) != nil else { return nil }
        return module as? any AsyncModule
    }

    /// Whether its init runs beside others instead of on the launching thread, in order.
    var initRunsConcurrently: Bool { descriptor.isAsync || asyncModule != nil }

    var name: String { descriptor.name }

    var stage: Stage { life.withLock { $0.stage } }

    /// Whether init failed, once it has finished or been given up; nil before.
    var initOutcome: Bool? { life.withLock { $0.initOutcome } }

    /// Claims the entry for the step that follows `expected`; false when it is elsewhere or retiring.
    func claim(at expected: Stage) -> Bool {
        life.withLock { life in
            guard !life.isClaimed, life.pendingRetirement == nil, life.stage == expected else { return false }
            life.isClaimed = true
            return true
        }
    }

    /// Ends a step at `stage`; returns the retirement to carry out now if one was asked for meanwhile.
    func release(at stage: Stage) -> Retirement? {
        life.withLock { life in
            life.stage = stage
            life.isClaimed = false
            guard let unmount = life.pendingRetirement else { return nil }
            life.pendingRetirement = nil
            life.isClaimed = true
            return Self.retirement(from: stage, unmount: unmount)
        }
    }

    /// Asks for tearDown (and unmount); returns what to do now, or nil when a claimer will do it or
    /// nothing is owed.
    func requestRetirement(unmount: Bool) -> Retirement? {
        life.withLock { life in
            if life.isClaimed {
                life.pendingRetirement = unmount || (life.pendingRetirement ?? false)
                return nil
            }
            guard life.stage != .unmounted, unmount || life.stage != .tornDown else { return nil }
            life.isClaimed = true
            return Self.retirement(from: life.stage, unmount: unmount)
        }
    }

    /// Ends a retirement; returns the waiters of an init that will now never run.
    func finishRetirement(_ retirement: Retirement) -> [@Sendable (Bool) -> Void] {
        life.withLock { life in
            life.stage = retirement.unmount ? .unmounted : .tornDown
            life.isClaimed = false
            return Self.settle(&life, failed: false)
        }
    }

    /// A module never set up is owed no hook; one set up is owed tearDown unless it had it already.
    private static func retirement(from stage: Stage, unmount: Bool) -> Retirement {
        switch stage {
        case .registered: Retirement(tearDown: false, unmount: false)
        case .setUp, .initialized, .splashed: Retirement(tearDown: true, unmount: unmount)
        case .tornDown, .unmounted: Retirement(tearDown: false, unmount: unmount && stage == .tornDown)
        }
    }

    /// Marks init as finished (or given up) and returns whoever waited for it.
    func settleInit(failed: Bool) -> [@Sendable (Bool) -> Void] {
        life.withLock { Self.settle(&$0, failed: failed) }
    }

    private static func settle(_ life: inout Life, failed: Bool) -> [@Sendable (Bool) -> Void] {
        guard life.initOutcome == nil else { return [] }
        life.initOutcome = failed
        defer { life.initWaiters = [] }
        return life.initWaiters
    }

    /// Calls `waiter` once init has finished, with whether it failed: now if it already has.
    func whenInitSettled(_ waiter: @escaping @Sendable (Bool) -> Void) {
        let outcome = life.withLock { life -> Bool? in
            if life.initOutcome == nil { life.initWaiters.append(waiter) }
            return life.initOutcome
        }
        if let outcome { waiter(outcome) }
    }
}
