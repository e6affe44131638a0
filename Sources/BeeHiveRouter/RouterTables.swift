/// What routing reads of a router: its configuration, its tables and its interceptors. A routing call works on one
/// copy of it from start to end, so routes added or removed meanwhile affect the next call. A copy is a few
/// retains: the tables are copy-on-write, and the router changes them in place once no copy holds them.
struct RouterTables: Sendable {
    struct InterceptorEntry: Sendable {
        let id: InterceptorID
        let interceptor: any RouteInterceptor
    }

    var configuration: RouterConfiguration
    var global = RouteTable()
    /// Keyed by lowercased scheme: schemes are case-insensitive.
    var schemes: [String: RouteTable] = [:]
    var globalInterceptors: [InterceptorEntry] = []
    var schemeInterceptors: [String: [InterceptorEntry]] = [:]

    /// The lowercased scheme of `url` when some scheme table or scheme interceptor exists. Otherwise the scheme
    /// is not even read: no string, no hashing.
    func schemeKey(of url: String) -> String? {
        guard !schemes.isEmpty || !schemeInterceptors.isEmpty else { return nil }
        return RouteURL.lowercasedScheme(of: url)
    }

    /// The scheme's table, when the URL goes there rather than to the global table.
    func table(forScheme key: String?) -> RouteTable? {
        guard let key, !schemes.isEmpty else { return nil }
        return schemes[key]
    }

    /// The interceptors a URL of this scheme meets, the global ones first.
    func interceptors(forScheme key: String?) -> [InterceptorEntry] {
        guard let key, !schemeInterceptors.isEmpty, let scoped = schemeInterceptors[key] else { return globalInterceptors }
        return globalInterceptors + scoped
    }

    /// The handler for a URL that the scheme's table (nil: the global table) did not handle; the global one when
    /// that table has none and falls back.
    func unmatchedHandler(for table: RouteTable?) -> Router.UnmatchedHandler? {
        guard let table else { return global.unmatchedHandler }
        return table.unmatchedHandler ?? (table.fallsBackToGlobalRoutes ? global.unmatchedHandler : nil)
    }
}
