/// The `level` of `@BeeHiveModule`: basic modules start before normal ones.
///
/// The annotations keep their own argument types rather than BeeHiveRegistry's `ModuleLevel`, so that this
/// library does not link a second copy of the registry into the program.
public enum BeeHiveModuleLevel: Sendable {
    case basic
    case normal
}
