extension ServiceManager {
    /// The innermost `withOverrides` scope of this manager in force for this task; nil outside every scope. A
    /// cache of looked-up services (`@Injected`) keeps the scope its instance was looked up in, so that an
    /// instance looked up inside a scope is not handed out after it, nor one looked up before it inside it.
    package var currentOverrideScope: AnyObject? {
        guard OverrideScope.everEntered.load(ordering: .relaxed), OverrideScope.current != nil else { return nil }
        return OverrideScope.innermost(for: ObjectIdentifier(self))
    }
}
