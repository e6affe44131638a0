import BeeHiveLocks
import BeeHiveObservation
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Logging

/// Routes URLs to handlers with JLRoutes' semantics, through a trie.
///
/// Routes live in a global table and in one table per scheme. A URL whose scheme has a table is matched there
/// only, then in the global table when the scheme falls back to it; any other URL goes to the global table.
/// Among the routes that match, higher priority goes first, then registration order; a handler returning false
/// lets the next one try.
///
/// Every method may be called from any thread. A routing call works on one copy of the tables, the one its
/// thread keeps between calls (``TableLeases``) or one made under a brief lock, so routes added or removed
/// meanwhile affect the next call, and handlers run with no lock held (a handler may add routes or route another
/// URL).
public final class Router: Sendable {
    /// Handles a matched route; returning false lets the next matching route try.
    public typealias Handler = @Sendable (RouteParameters) -> Bool
    /// Called when a URL is routed and no route handles it.
    public typealias UnmatchedHandler = @Sendable (RouteRequest) -> Void

    private enum TableKey: Hashable, Sendable {
        case global
        case scheme(String)
    }

    private struct State: Sendable {
        var tables: RouterTables
        var tableOfRoute: [RouteID: TableKey] = [:]
        var nextRouteID: UInt64 = 1
        var nextInterceptorID: UInt64 = 1
        /// Ranks every expansion ever registered, so equal priorities keep registration order.
        var nextOrder: UInt64 = 0

        mutating func withTable<T>(_ key: TableKey, _ body: (inout RouteTable) -> T) -> T {
            switch key {
            case .global: body(&tables.global)
            case .scheme(let name): body(&tables.schemes[name, default: RouteTable()])
            }
        }
    }

    private let state: Locked<State>
    /// Copies of `state.tables` that routing calls lease without the lock.
    private let leases = TableLeases()
    /// ``ThreadSanitizer/isActive``, read once: the global's lazy initializer was checked on every routing call.
    private let underThreadSanitizer = ThreadSanitizer.isActive
    /// Which record became which registration: the one ledger, used by `apply(_:)` and by the hub that feeds
    /// this manager, so that feeding it both ways registers nothing twice.
    package let ledger = RecordLedger<Router>()
    let logger: Logger
    /// Asked, by URL, when no route handles it (Router+Deferred.swift); the hub sets it.
    package let deferred = Locked<DeferredLookup<String>?>(nil)

    public init(
        configuration: RouterConfiguration = RouterConfiguration(),
        logger: Logger = Logger(label: "beehive.router", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        state = Locked(State(tables: RouterTables(configuration: configuration)))
        self.logger = logger
    }

    public var configuration: RouterConfiguration {
        get { state.withLock { $0.tables.configuration } }
        set { change { $0.tables.configuration = newValue } }
    }

    // MARK: Registering routes

    /// Registers a route. `scheme` nil puts it in the global table; a scheme gets its own table.
    ///
    /// - Throws: ``RoutePatternError`` when the pattern is malformed; nothing is registered then.
    @discardableResult
    public func addRoute(
        _ pattern: String, scheme: String? = nil, priority: Int = 0, fileID: String = #fileID, line: Int = #line,
        handler: @escaping Handler = { _ in true }
    ) throws(RoutePatternError) -> RouteID {
        try addRoutes([pattern], scheme: scheme, priority: priority, fileID: fileID, line: line, handler: handler)[0]
    }

    /// Registers one handler for several patterns (JLRoutes' `addRoutes:`), all or none.
    ///
    /// - Throws: ``RoutePatternError`` for the first malformed pattern; nothing is registered then.
    @discardableResult
    public func addRoutes(
        _ patterns: [String], scheme: String? = nil, priority: Int = 0, fileID: String = #fileID, line: Int = #line,
        handler: @escaping Handler = { _ in true }
    ) throws(RoutePatternError) -> [RouteID] {
        try register(patterns, scheme: scheme, priority: priority, handler: handler, handlerName: .closure, origin: .source(fileID: fileID, line: line))
    }

    /// Registers a route whose handler type is instantiated for every match (JLRoutes'
    /// `handlerBlockForTargetClass:`).
    @discardableResult
    public func addRoute<Handler: RouteHandler>(
        _ pattern: String, scheme: String? = nil, priority: Int = 0, handlerType: Handler.Type, fileID: String = #fileID,
        line: Int = #line
    ) throws(RoutePatternError) -> RouteID {
        try register(
            [pattern], scheme: scheme, priority: priority, handler: { parameters in Handler().handle(parameters) },
            handlerName: .handlerType(Handler.self), origin: .source(fileID: fileID, line: line))[0]
    }

    func register(
        _ patterns: [String], scheme: String?, priority: Int, handler: @escaping Handler, handlerName: RouteHandlerName, origin: RouteOrigin
    ) throws(RoutePatternError) -> [RouteID] {
        let options = configuration.patternOptions
        var parsed: [RoutePattern] = []
        parsed.reserveCapacity(patterns.count)
        for pattern in patterns { parsed.append(try RoutePattern(pattern, options: options)) }
        let key = Self.tableKey(scheme)
        let schemeName = key == .global ? nil : scheme
        let ids = change { state in
            parsed.map { pattern in
                let id = RouteID(rawValue: state.nextRouteID)
                state.nextRouteID += 1
                let definition = RouteDefinition(
                    id: id, pattern: pattern, scheme: schemeName, priority: priority, firstOrder: state.nextOrder,
                    handler: handler, handlerName: handlerName, origin: origin)
                state.nextOrder += UInt64(pattern.expansions.count)
                state.withTable(key) { $0.add(definition) }
                state.tableOfRoute[id] = key
                return id
            }
        }
        logger.debug("registered routes", metadata: ["patterns": "\(patterns)", "scheme": "\(scheme ?? "global")"])
        return ids
    }

    /// Removes one registration, with every expansion of its pattern. Returns false when it is not registered.
    @discardableResult
    public func removeRoute(_ id: RouteID) -> Bool {
        remove { state in
            guard let key = state.tableOfRoute.removeValue(forKey: id) else { return (false, []) }
            let removed = state.withTable(key) { $0.remove(id) }
            return (removed != nil, removed.map { [$0] } ?? [])
        }
    }

    /// Removes every registration of `pattern` (compared as written) in a table; returns how many.
    @discardableResult
    public func removeRoutes(withPattern pattern: String, scheme: String? = nil) -> Int {
        let key = Self.tableKey(scheme)
        return remove { state in
            guard key == .global || state.tables.schemes[Self.name(of: key)] != nil else { return (0, []) }
            let removed = state.withTable(key) { $0.removeDefinitions(withPattern: pattern) }
            for definition in removed { state.tableOfRoute[definition.id] = nil }
            return (removed.count, removed)
        }
    }

    /// Removes every route of a table, keeping the table and its options.
    public func removeAllRoutes(scheme: String? = nil) {
        let key = Self.tableKey(scheme)
        remove { state in
            guard key == .global || state.tables.schemes[Self.name(of: key)] != nil else { return ((), []) }
            let removed = state.withTable(key) { $0.removeAll() }
            for definition in removed { state.tableOfRoute[definition.id] = nil }
            return ((), removed)
        }
    }

    /// Creates an empty table for `scheme` if it has none (JLRoutes' `routesForScheme:`). From then on, URLs of
    /// that scheme are matched against it rather than against the global table.
    public func addScheme(_ scheme: String) {
        let key = Self.tableKey(scheme)
        guard case .scheme(let name) = key else { return }
        change { state in
            if state.tables.schemes[name] == nil { state.tables.schemes[name] = RouteTable() }
        }
    }

    /// Removes a scheme's table with its routes, options and unmatched-URL handler; its URLs go to the global
    /// table again. Interceptors added for the scheme stay.
    public func removeScheme(_ scheme: String) {
        guard case .scheme(let name) = Self.tableKey(scheme) else { return }
        remove { state in
            guard let table = state.tables.schemes.removeValue(forKey: name) else { return ((), []) }
            for id in table.definitions.keys { state.tableOfRoute[id] = nil }
            return ((), [table])
        }
    }

    /// Removes every scheme's table; the global table stays.
    public func removeAllSchemes() {
        remove { state in
            let removed = state.tables.schemes
            for table in removed.values {
                for id in table.definitions.keys { state.tableOfRoute[id] = nil }
            }
            state.tables.schemes = [:]
            return ((), [removed])
        }
    }

    /// The schemes that have a table, lowercased and sorted.
    public var schemes: [String] {
        state.withLock { $0.tables.schemes.keys.sorted() }
    }

    /// Sets JLRoutes' `shouldFallbackToGlobalRoutes` for a scheme, creating its table if needed.
    public func setFallsBackToGlobalRoutes(_ fallsBack: Bool, forScheme scheme: String) {
        guard case .scheme(let name) = Self.tableKey(scheme) else { return }
        change { $0.tables.schemes[name, default: RouteTable()].fallsBackToGlobalRoutes = fallsBack }
    }

    public func fallsBackToGlobalRoutes(forScheme scheme: String) -> Bool {
        guard case .scheme(let name) = Self.tableKey(scheme) else { return false }
        return state.withLock { $0.tables.schemes[name]?.fallsBackToGlobalRoutes ?? false }
    }

    /// Sets the handler called when a URL routed to this table is not handled (nil removes it). A scheme's
    /// table gets a handler created if needed. When a scheme table without a handler falls back to the global
    /// table, the global handler is called.
    public func setUnmatchedHandler(_ handler: UnmatchedHandler?, forScheme scheme: String? = nil) {
        let key = Self.tableKey(scheme)
        change { state in
            if handler == nil, case .scheme(let name) = key, state.tables.schemes[name] == nil { return }
            state.withTable(key) { $0.unmatchedHandler = handler }
        }
    }

    /// The routes of a table in the order they are tried; empty when the scheme has no table.
    public func routes(scheme: String? = nil) -> [RouteDescriptor] {
        let key = Self.tableKey(scheme)
        return state.withLock { state in
            switch key {
            case .global: state.tables.global.descriptors
            case .scheme(let name): state.tables.schemes[name]?.descriptors ?? []
            }
        }
    }

    /// Every route: the global table's, then each scheme's by scheme name, each in the order they are tried.
    public var allRoutes: [RouteDescriptor] {
        state.withLock { state in
            state.tables.global.descriptors + state.tables.schemes.sorted { $0.key < $1.key }.flatMap(\.value.descriptors)
        }
    }

    /// Every table as text, in the order URLs meet them: the global table, then each scheme's by name. Each
    /// route is listed in the order it is tried, with its priority, its handler and where it was registered;
    /// a pattern with optional groups lists its expansions, in their order.
    ///
    /// ```
    /// global table
    ///   1. /user/view/:id  priority 10  App.UserRoute (typed)  App/Routes.swift:12
    /// scheme "shop" (falls back to the global table)
    ///   1. /item/:id  priority 0  closure  App/Shop.swift:30
    /// ```
    public var routeTableDescription: String {
        let tables = state.withLock { state in
            [(name: String?.none, table: state.tables.global)] + state.tables.schemes.sorted { $0.key < $1.key }.map { (name: $0.key, table: $0.value) }
        }
        var lines: [String] = []
        for (name, table) in tables {
            var heading = name.map { "scheme \($0.debugDescription)" } ?? "global table"
            var notes: [String] = []
            if table.fallsBackToGlobalRoutes { notes.append("falls back to the global table") }
            if table.unmatchedHandler != nil { notes.append("has an unmatched-URL handler") }
            if !notes.isEmpty { heading += " (" + notes.joined(separator: ", ") + ")" }
            lines.append(heading)
            let routes = table.descriptors
            if routes.isEmpty { lines.append("  (no routes)") }
            for (position, route) in routes.enumerated() {
                lines.append("  \(position + 1). \(route.pattern.text)  priority \(route.priority)  \(route.handler)  \(route.origin)")
                let expansions = route.pattern.expandedPatterns
                if expansions.count > 1 || expansions.first != route.pattern.text {
                    lines.append("       tried as " + expansions.joined(separator: ", "))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Interceptors

    /// Adds an interceptor for every URL (`scheme` nil) or for the URLs of one scheme.
    @discardableResult
    public func addInterceptor(_ interceptor: some RouteInterceptor, scheme: String? = nil) -> InterceptorID {
        let key = Self.tableKey(scheme)
        return change { state in
            let entry = RouterTables.InterceptorEntry(id: InterceptorID(rawValue: state.nextInterceptorID), interceptor: interceptor)
            state.nextInterceptorID += 1
            switch key {
            case .global: state.tables.globalInterceptors.append(entry)
            case .scheme(let name): state.tables.schemeInterceptors[name, default: []].append(entry)
            }
            return entry.id
        }
    }

    /// Adds an interceptor made of a closure.
    @discardableResult
    public func addInterceptor(
        scheme: String? = nil, _ intercept: @escaping @Sendable (RouteRequest) -> InterceptorDecision
    ) -> InterceptorID {
        addInterceptor(ClosureInterceptor(body: intercept), scheme: scheme)
    }

    @discardableResult
    public func removeInterceptor(_ id: InterceptorID) -> Bool {
        remove { state in
            if let index = state.tables.globalInterceptors.firstIndex(where: { $0.id == id }) {
                return (true, [state.tables.globalInterceptors.remove(at: index)])
            }
            for (name, entries) in state.tables.schemeInterceptors {
                guard let index = entries.firstIndex(where: { $0.id == id }) else { continue }
                let removed = state.tables.schemeInterceptors[name]?.remove(at: index)
                if state.tables.schemeInterceptors[name]?.isEmpty == true { state.tables.schemeInterceptors[name] = nil }
                return (true, removed.map { [$0] } ?? [])
            }
            return (false, [])
        }
    }

    // MARK: Routing

    /// Whether some route matches the URL (handlers and interceptors are not run).
    public func canRoute(_ url: String) -> Bool {
        let matches = withTables { tables in
            var parsed = RouteURL.ComponentBuffer(reading: tables.configuration)
            parsed.read(url)
            guard let table = tables.table(forScheme: tables.schemeKey(of: url)) else {
                return tables.global.trie.matches(&parsed, in: url)
            }
            return table.trie.matches(&parsed, in: url) || (table.fallsBackToGlobalRoutes && tables.global.trie.matches(&parsed, in: url))
        }
        return matches || declaresDeferredRoute(for: url)
    }

    /// The route a URL matches first and the parameters its handler would receive, without running handlers
    /// or interceptors.
    public func match(_ url: String, parameters: [String: any Sendable] = [:]) -> RouteMatch? {
        let caller = parameters.isEmpty ? nil : RouteParameters(parameters)
        return withTables { tables in
            var parsed = RouteURL.ComponentBuffer(reading: tables.configuration)
            parsed.read(url)
            var text = url
            return Self.resolve(&parsed, text: &text, in: tables, scheme: tables.schemeKey(of: url), caller: caller, runningHandlers: false)
        }
    }

    /// Routes a URL: runs the interceptors, then the handlers of the matching routes, best first, until one
    /// returns true. When none does, the unmatched-URL handler is called.
    ///
    /// - Parameter parameters: Values merged into the handler's parameters; they beat route variables and query
    ///   parameters with the same key.
    /// - Throws: ``RoutingError`` when interceptors redirect in a loop or too many times.
    @discardableResult
    public func route(_ url: consuming String, parameters: [String: any Sendable] = [:]) throws(RoutingError) -> RouteResult {
        let caller = parameters.isEmpty ? nil : RouteParameters(parameters)
        // Not `withTables`: a closure cannot pass the URL on without copying it.
        guard let lease = leases.lease() else {
            var tables = state.withLock { $0.tables }
            defer { withExtendedLifetime(tables) { endReading() } }
            return try route(url, caller: caller, in: &tables)
        }
        defer { leases.release(lease) { endReading() } }
        if !leases.isCurrent(lease) { refill(lease) }
        // In place: passed as a value, the copy was copied (six retains and releases).
        return try route(url, caller: caller, in: &lease.tables.pointee)
    }

    // MARK: Internals

    /// Runs `body` on the tables: the calling thread's leased copy, or, when that is taken (a handler routing
    /// again, or another thread sharing the slot), a copy made under the lock.
    @inline(__always)
    private func withTables<Result, Failure: Error>(
        _ body: (borrowing RouterTables) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let lease = leases.lease() else {
            let tables = state.withLock { $0.tables }
            defer { withExtendedLifetime(tables) { endReading() } }
            return try body(tables)
        }
        defer { leases.release(lease) { endReading() } }
        if !leases.isCurrent(lease) { refill(lease) }
        return try body(lease.tables.pointee)
    }

    /// Copies the current tables into a leased slot whose copy is old. Taking the lock before the old copy is let
    /// go of also orders this thread's earlier reads of it for the thread sanitizer.
    @inline(never)
    private func refill(_ lease: TableLeases.Lease) {
        let (tables, version) = state.withLock { ($0.tables, leases.currentVersion) }
        leases.fill(lease, with: tables, version: version)
    }

    /// Changes the state under the lock. The leased copies of the tables are made old first, and those not in
    /// use let go of the tables, so that the change is made in place.
    private func change<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            leases.invalidate()
            return body(&state)
        }
    }

    /// `change(_:)` for removals: what `body` takes out of the tables (handlers, interceptors and what they hold)
    /// is released after the lock is let go, so that a deinit that calls back into the router returns.
    private func remove<Result>(_ body: (inout State) -> (Result, removed: [any Sendable])) -> Result {
        let (result, removed) = change(body)
        withExtendedLifetime(removed) {}
        return result
    }

    /// One routing call on one copy of the tables, redirects included.
    private func route(_ url: consuming String, caller: RouteParameters?, in tables: inout RouterTables) throws(RoutingError) -> RouteResult {
        // The URL is taken, not borrowed, and moved on into the match: a borrowed URL was copied and released
        // for the match, atomic operations that cost more time than parsing it. A caller that keeps its string
        // pays one copy at the call instead.
        var next: String? = consume url
        var redirects: [String] = []
        redirecting: while let current = next.take() {
            let scheme = tables.schemeKey(of: current)
            if !tables.globalInterceptors.isEmpty || !tables.schemeInterceptors.isEmpty {
                let request = Self.request(for: current, reading: tables.configuration, caller: caller, redirects: redirects)
                for entry in tables.interceptors(forScheme: scheme) {
                    switch entry.interceptor.intercept(request) {
                    case .proceed:
                        continue
                    case .reject(let reason):
                        debug("URL rejected", metadata: ["url": "\(current)", "interceptor": "\(entry.id)", "reason": "\(reason)"])
                        return .rejected(RouteRejection(url: current, reason: reason, interceptor: entry.id))
                    case .redirect(let target):
                        redirects.append(current)
                        if redirects.contains(target) { throw .redirectLoop(chain: redirects + [target]) }
                        let limit = tables.configuration.maximumRedirects
                        if redirects.count > limit { throw .tooManyRedirects(chain: redirects + [target], limit: limit) }
                        debug("URL redirected", metadata: ["url": "\(current)", "to": "\(target)", "interceptor": "\(entry.id)"])
                        next = target
                        continue redirecting
                    }
                }
            }
            var parsed = RouteURL.ComponentBuffer(reading: tables.configuration)
            parsed.read(current)
            // A variable only from here: reading a variable's text for a call copied it.
            var text = consume current
            if let match = Self.resolve(&parsed, text: &text, in: tables, scheme: scheme, caller: caller, runningHandlers: true) {
                return .handled(match)
            }
            if try loadDeferredRoute(for: text) {
                // The plugin's routes are in the router's tables now, not in this copy: read them again.
                let match = withTables { tables in
                    Self.resolve(&parsed, text: &text, in: tables, scheme: scheme, caller: caller, runningHandlers: true)
                }
                if let match { return .handled(match) }
            }
            let request = Self.request(for: text, reading: tables.configuration, caller: caller, redirects: redirects)
            debug("no route handled the URL", metadata: ["url": "\(text)"])
            tables.unmatchedHandler(for: tables.table(forScheme: scheme))?(request)
            return .unmatched(request)
        }
        preconditionFailure("every pass of the redirect loop returns or sets the next URL")
    }

    /// The first match whose handler accepts the URL (or simply the first match), in the scheme's table, else the
    /// global table, then in the global table when the scheme's table falls back to it. The URL's text moves into
    /// the match; it is left in `text` when nothing matched.
    private static func resolve(
        _ url: inout RouteURL.ComponentBuffer, text: inout String, in tables: borrowing RouterTables, scheme: String?,
        caller: RouteParameters?,
        runningHandlers: Bool
    ) -> RouteMatch? {
        let plusAsSpace = tables.configuration.decodesPlusSymbols
        var match: RouteMatch?
        if let scheme, let table = tables.table(forScheme: scheme) {
            match = firstAccepted(&url, text: &text, in: table.trie, caller: caller, runningHandlers: runningHandlers, plusAsSpace: plusAsSpace)
            if match == nil && table.fallsBackToGlobalRoutes {
                match = firstAccepted(
                    &url, text: &text, in: tables.global.trie, caller: caller, runningHandlers: runningHandlers, plusAsSpace: plusAsSpace)
            }
        } else {
            match = firstAccepted(
                &url, text: &text, in: tables.global.trie, caller: caller, runningHandlers: runningHandlers, plusAsSpace: plusAsSpace)
        }
        guard let match else { return nil }
        HiveObserver.routeMatched()
        return match
    }

    /// The first route of the table that takes the URL. One walk lists the routes that fit, best first, so
    /// declining handlers cost linear time; each candidate's values are read from the URL only when its handler
    /// asks. The text moves into the match rather than being copied (a copy and its release were two atomic
    /// operations per routing call), and back into `text` when no route takes it.
    private static func firstAccepted(
        _ url: inout RouteURL.ComponentBuffer, text: inout String, in trie: RouteTrie, caller: RouteParameters?,
        runningHandlers: Bool,
        plusAsSpace: Bool
    ) -> RouteMatch? {
        // Taken into a constant first: reading the `inout` text for the walk copied it.
        let owned = take(&text)
        var candidates = trie.candidates(for: &url, in: owned)
        guard var candidate = candidates.next(in: trie) else {
            text = consume owned
            return nil
        }
        // JLRoutes' merge order: query parameters, then route variables, then the caller's values, then the
        // reserved keys, each overriding the previous. All but the caller's stay in the URL and the route until a
        // handler reads them.
        // Not `caller ?? RouteParameters()` or `if let`: both copied the optional through its value witness.
        var parameters = RouteParameters()
        if case .some = caller { parameters = caller! }
        parameters.setMatch(MatchedURL(
            text: consume owned, candidate: candidate, plusAsSpace: plusAsSpace,
            treatsHostAsPathComponent: url.treatsHostAsPathComponent, readsLikeJLRoutes: url.readsLikeJLRoutes))
        while true {
            if !runningHandlers || candidate.handle(parameters) { return RouteMatch(parameters: consume parameters) }
            guard let next = candidates.next(in: trie) else { break }
            candidate = next
            parameters.retargetMatch(candidate)
        }
        if let matched = parameters.takeMatchedText() { text = matched }
        return nil
    }

    /// Moves a string out of a variable, leaving it empty.
    private static func take(_ text: inout String) -> String {
        var taken = ""
        swap(&taken, &text)
        return taken
    }

    /// Logs off the routing path. Inlined into `route`'s loop, the logger's reads were hoisted to the loop's
    /// start: an exclusivity check on its handler for every routing call, logged or not.
    @inline(never)
    private func debug(_ message: @autoclosure () -> Logger.Message, metadata: @autoclosure () -> Logger.Metadata) {
        logger.debug(message(), metadata: metadata())
    }

    /// Called after reading a copy of the tables, while the copy still holds them, before it is let go of. The
    /// tables are read without the lock, and a registration changes them in place once no copy holds them any
    /// more: Swift's atomic reference counts order the two, as they order every copy-on-write value shared between
    /// threads. TSan cannot see that (the runtime is not instrumented) and would report a race, so under TSan the
    /// thread passes through the lock, which it sees; after the copy is let go of, a registration could come
    /// between. An idle leased copy needs no such pass: the change that empties it takes its slot with an atomic
    /// the sanitizer sees.
    private func endReading() {
        if underThreadSanitizer { state.withLock { _ in } }
    }

    /// The request interceptors and the unmatched-URL handler see; reads the URL again, off the routing path.
    private static func request(
        for text: String, reading configuration: RouterConfiguration, caller: RouteParameters?, redirects: [String]
    ) -> RouteRequest {
        let url = configuration.read(text)
        return RouteRequest(
            url: text, scheme: url.scheme(in: text),
            pathComponents: url.components.map {
                RouteURL.value(of: $0, in: text, plusAsSpace: configuration.decodesPlusSymbols)
            },
            parameters: caller ?? RouteParameters(), redirects: redirects)
    }

    /// nil, the empty string and ``RouteParameters/globalScheme`` name the global table.
    private static func tableKey(_ scheme: String?) -> TableKey {
        guard let scheme, !scheme.isEmpty, scheme != RouteParameters.globalScheme else { return .global }
        return .scheme(scheme.lowercased())
    }

    private static func name(of key: TableKey) -> String {
        switch key {
        case .global: RouteParameters.globalScheme
        case .scheme(let name): name
        }
    }
}
