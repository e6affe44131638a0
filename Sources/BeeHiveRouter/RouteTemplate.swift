/// What a match needs of its route to read its values: the pattern and the scheme of its table, without the
/// handler. Parameters keep this, never the ``RouteDefinition``, so a handler that stores the parameters it
/// receives in an object it captures does not make a reference cycle through its own closure.
final class RouteTemplate: Sendable {
    let pattern: RoutePattern
    /// nil for the global table.
    let scheme: String?

    init(pattern: RoutePattern, scheme: String?) {
        self.pattern = pattern
        self.scheme = scheme
    }
}
