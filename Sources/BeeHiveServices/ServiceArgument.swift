/// Which argument of a lookup a factory or initializer asked for: its position or its name.
public enum ServiceArgument: Sendable, Hashable, CustomStringConvertible {
    /// A positional argument, by index.
    case position(Int)
    /// A named argument, by its name as written in the lookup.
    case name(String)

    public var description: String {
        switch self {
        case .position(let index): "#\(index)"
        case .name(let name): "'\(name)'"
        }
    }
}
