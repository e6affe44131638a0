import BeeHiveLocks
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Logging

/// Target-action calls between modules that do not import each other (CTMediator), without the Objective-C
/// runtime: targets are registered by name, in code or by `.target` annotations, and actions are dispatched
/// through each target's typed ``MediatorTarget/Action``.
///
/// ```swift
/// mediator.register(ShopTarget.self, as: "shop")
/// let page = try mediator.perform(target: "shop", action: "detail", parameters: ["id": "42"])
/// let same = try mediator.perform(url: "app://shop/detail?id=42")
/// ```
///
/// A target registered in code takes precedence over one registered by annotation under the same name.
public final class Mediator: Sendable {
    /// Answers calls nobody is registered for; what it returns is the call's result.
    public typealias Fallback = @Sendable (MediatorMiss) -> (any Sendable)?

    private enum Invocation {
        case performed((any Sendable)?)
        case unknownAction
    }

    private struct TargetEntry: Sendable {
        let id: UInt64
        /// The target type's name, for `targetTypes`.
        let typeName: String
        let hasAction: @Sendable (String) -> Bool
        let invoke: @Sendable (String, RouteParameters) throws -> Invocation
    }

    private struct State: Sendable {
        /// The first entry of a name answers; the others wait for it to go.
        var targets: [String: [TargetEntry]] = [:]
        var fallback: Fallback?
        var nextID: UInt64 = 1
    }

    /// The scheme URLs must have, or nil for any scheme.
    public let scheme: String?
    /// Actions starting with this prefix cannot be performed through a URL (CTMediator refuses `native...`
    /// actions from URLs, which may come from outside the app). nil allows every action.
    public let localOnlyActionPrefix: String?
    /// Whether `+` in URL query values becomes a space.
    public let decodesPlusSymbols: Bool
    private let state = Locked(State())
    /// Which record became which registration: the one ledger, used by `apply(_:)` and by the hub that feeds
    /// this manager, so that feeding it both ways registers nothing twice.
    package let ledger = RecordLedger<Mediator>()
    private let logger: Logger
    /// Asked, by target name, when no target is registered under a name (Mediator+Deferred.swift); the hub
    /// sets it.
    package let deferred = Locked<DeferredLookup<String>?>(nil)

    public init(
        scheme: String? = nil, localOnlyActionPrefix: String? = "native", decodesPlusSymbols: Bool = true,
        logger: Logger = Logger(label: "beehive.mediator", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.scheme = scheme
        self.localOnlyActionPrefix = localOnlyActionPrefix
        self.decodesPlusSymbols = decodesPlusSymbols
        self.logger = logger
    }

    // MARK: Registering targets

    /// Registers a target type under a name; every call makes a new instance.
    public func register<Target: MediatorTarget>(_ type: Target.Type, as name: String) {
        insert(Self.entry(for: type), as: name, first: true)
    }

    /// Registers a target instance under a name; every call uses this instance (CTMediator's cached target).
    public func register<Target: MediatorTarget & Sendable>(_ target: Target, as name: String) {
        insert(Self.entry(for: target), as: name, first: true)
    }

    /// Removes every target registered under the name.
    public func removeTarget(named name: String) {
        _ = state.withLock { $0.targets.removeValue(forKey: name) }
    }

    /// The names that have a target, sorted.
    public var targetNames: [String] {
        state.withLock { $0.targets.keys.sorted() }
    }

    /// Each name that has a target, sorted, with the type of the target that answers it.
    package var targetTypes: [(name: String, typeName: String)] {
        state.withLock { state in
            state.targets.compactMap { name, entries in entries.first.map { (name, $0.typeName) } }
        }.sorted { $0.name < $1.name }
    }

    /// Sets the fallback for calls to an unknown target or action (nil removes it): with a fallback, such
    /// calls return its result instead of throwing.
    public func setFallback(_ fallback: Fallback?) {
        state.withLock { $0.fallback = fallback }
    }

    /// Whether a call would reach an action (the fallback does not count).
    public func canPerform(target: String, action: String) -> Bool {
        guard let entry = state.withLock({ $0.targets[target]?.first }) else { return declaresDeferredTarget(target) }
        return entry.hasAction(action)
    }

    // MARK: Performing actions

    /// Performs an action of a target (CTMediator's `performTarget:action:params:`).
    ///
    /// - Throws: ``MediatorError/unknownTarget(target:action:)`` or ``MediatorError/unknownAction(target:action:)``
    ///   when nobody answers and no fallback is set; ``MediatorError/actionFailed(target:action:underlying:)``
    ///   when the action throws.
    @discardableResult
    public func perform(target: String, action: String, parameters: [String: any Sendable] = [:]) throws(MediatorError) -> (any Sendable)? {
        try perform(target: target, action: action, parameters: RouteParameters(parameters))
    }

    @discardableResult
    public func perform(target: String, action: String, parameters: RouteParameters) throws(MediatorError) -> (any Sendable)? {
        var (entry, fallback) = state.withLock { ($0.targets[target]?.first, $0.fallback) }
        if entry == nil, try loadDeferredTarget(target) {
            entry = state.withLock { $0.targets[target]?.first }
        }
        guard let entry else {
            return try miss(.unknownTarget(target: target, action: action, parameters: parameters), fallback: fallback)
        }
        let invocation: Invocation
        do {
            invocation = try entry.invoke(action, parameters)
        } catch {
            throw .actionFailed(target: target, action: action, underlying: error)
        }
        switch invocation {
        case .performed(let result):
            return result
        case .unknownAction:
            return try miss(.unknownAction(target: target, action: action, parameters: parameters), fallback: fallback)
        }
    }

    /// Performs an action and returns its result as `T`.
    ///
    /// - Throws: ``MediatorError/unexpectedResult(target:action:expected:actual:)`` when the result is not a `T`,
    ///   and what the untyped form throws.
    public func perform<T>(
        target: String, action: String, parameters: [String: any Sendable] = [:], as type: T.Type
    ) throws(MediatorError) -> T {
        let result = try perform(target: target, action: action, parameters: RouteParameters(parameters))
        guard let typed = result as? T else {
            throw .unexpectedResult(
                target: target, action: action, expected: String(describing: T.self),
                actual: result.map { String(describing: Swift.type(of: $0)) } ?? "nil")
        }
        return typed
    }

    /// Performs the action a URL names: `scheme://target/action?key=value` (CTMediator's
    /// `performActionWithUrl:`). Query parameters become the action's parameters (a repeated key holds every
    /// value), and ``RouteParameters/ReservedKey/url`` holds the URL.
    ///
    /// - Throws: ``MediatorError/invalidURL(url:reason:)`` for another shape or scheme,
    ///   ``MediatorError/localOnlyAction(target:action:prefix:)`` for a local-only action, and what a call by
    ///   target and action name throws.
    @discardableResult
    public func perform(url: String) throws(MediatorError) -> (any Sendable)? {
        let parsed = RouteURL(url, treatsHostAsPathComponent: true)
        guard let urlScheme = parsed.scheme(in: url) else { throw .invalidURL(url: url, reason: "it has no scheme") }
        if let scheme, urlScheme.lowercased() != scheme.lowercased() {
            throw .invalidURL(url: url, reason: "its scheme is not '\(scheme)'")
        }
        let components = parsed.components
        guard components.count == 2, !components.contains(where: \.isFragmentMarker) else {
            throw .invalidURL(url: url, reason: "it names \(components.count) path components instead of a target and an action")
        }
        let target = RouteURL.value(of: components[0], in: url, plusAsSpace: false)
        let action = RouteURL.value(of: components[1], in: url, plusAsSpace: false)
        if let prefix = localOnlyActionPrefix, action.hasPrefix(prefix) {
            throw .localOnlyAction(target: target, action: action, prefix: prefix)
        }
        var parameters = RouteParameters()
        parsed.forEachQueryItem(in: url, plusAsSpace: decodesPlusSymbols) { name, value in parameters.append(value, forKey: name) }
        parameters.setValue(.string(url), forKey: RouteParameters.ReservedKey.url)
        return try perform(target: target, action: action, parameters: parameters)
    }

    // MARK: Annotations

    /// Registers the targets declared by `.target` records that arrived and removes those of records that went
    /// away. `Hive` does this for you.
    ///
    /// - Returns: A diagnostic, naming the record and its object file, for every type that does not resolve or
    ///   does not conform to ``MediatorTarget``; the other targets are registered regardless.
    @discardableResult
    public func apply(_ update: RegistryUpdate) -> [RegistryDiagnostic] {
        ledger.apply(update, to: self)
    }

    // MARK: Internals

    @discardableResult
    private func insert(_ make: (UInt64) -> TargetEntry, as name: String, first: Bool) -> UInt64 {
        state.withLock { state in
            let entry = make(state.nextID)
            state.nextID += 1
            if first {
                state.targets[name, default: []].insert(entry, at: 0)
            } else {
                state.targets[name, default: []].append(entry)
            }
            return entry.id
        }
    }

    private func miss(_ miss: MediatorMiss, fallback: Fallback?) throws(MediatorError) -> (any Sendable)? {
        logger.debug("mediator call not answered", metadata: ["target": "\(miss.target)", "action": "\(miss.action)"])
        if let fallback { return fallback(miss) }
        switch miss {
        case .unknownTarget(let target, let action, _): throw .unknownTarget(target: target, action: action)
        case .unknownAction(let target, let action, _): throw .unknownAction(target: target, action: action)
        }
    }

    private static func entry<Target: MediatorTarget>(for type: Target.Type) -> (UInt64) -> TargetEntry {
        { id in
            TargetEntry(
                id: id,
                typeName: String(reflecting: Target.self),
                hasAction: { Target.Action(rawValue: $0) != nil },
                invoke: { name, parameters in
                    guard let action = Target.Action(rawValue: name) else { return .unknownAction }
                    return .performed(try Target().perform(action, parameters: parameters))
                })
        }
    }

    private static func entry<Target: MediatorTarget & Sendable>(for target: Target) -> (UInt64) -> TargetEntry {
        { id in
            TargetEntry(
                id: id,
                typeName: String(reflecting: Target.self),
                hasAction: { Target.Action(rawValue: $0) != nil },
                invoke: { name, parameters in
                    guard let action = Target.Action(rawValue: name) else { return .unknownAction }
                    return .performed(try target.perform(action, parameters: parameters))
                })
        }
    }
}

@_spi(BeeHiveInternals)
extension Mediator: RecordConsumer {
    /// One target registered from a `.target` record.
    public struct Token: Sendable, Hashable {
        let name: String
        let id: UInt64
    }

    public typealias Diagnostic = RegistryDiagnostic

    public func consumes(_ record: AnnotationRecord) -> Bool {
        record.kind == .target
    }

    /// Registers the target each record declares, after those registered in code under the same name.
    public func register(_ records: [AnnotationRecord]) -> [RecordOutcome<Token, RegistryDiagnostic>] {
        records.map { record in
            let failure: RegistryDiagnostic.Kind
            if case .target(let target) = record.payload {
                switch TypeResolver.resolve(target.typeName, as: (any MediatorTarget.Type).self, origin: record.origin) {
                case .success(let type):
                    return .registered(Token(name: target.name, id: insert(Self.entry(for: type), as: target.name, first: false)))
                case .failure(let diagnostic):
                    failure = diagnostic.kind
                }
            } else {
                failure = .misplacedRecord(kind: record.kind, expectedSection: SectionName.routes)
            }
            let diagnostic = RegistryDiagnostic(
                failure, objectPath: record.origin.objectPath, section: record.origin.section, record: record.text)
            logger.error("mediator target not registered: \(diagnostic)")
            return .refused(diagnostic)
        }
    }

    public func unregister(_ tokens: [Token]) -> [RegistryDiagnostic] {
        state.withLock { state in
            for token in tokens {
                state.targets[token.name]?.removeAll { $0.id == token.id }
                if state.targets[token.name]?.isEmpty == true { state.targets[token.name] = nil }
            }
        }
        return []
    }
}
