/// A Swift nominal type or protocol by its module and the chain of names that leads to it, such as
/// `Shop.Outer.Inner` (a struct nested in a class), as read from a binary or from an annotation.
public struct SwiftTypePath: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case `class`, `struct`, `enum`, `protocol`
        /// Any nominal type: the kind was not written (a dotted name, or `XY` in a mangled one).
        case anyNominal = "type"
    }

    public struct Component: Sendable, Hashable {
        public let name: String
        public let kind: Kind

        public init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    public let module: String
    /// Outermost first; never empty.
    public let components: [Component]

    public init(module: String, components: [Component]) {
        self.module = module
        self.components = components
    }

    public var kind: Kind { components[components.count - 1].kind }

    /// `Module.Outer.Inner`.
    public var dottedName: String { ([module] + components.map(\.name)).joined(separator: ".") }

    public var description: String { dottedName }

    /// The mangled name without `$s`, the form `_typeByName` resolves for every non-generic nominal type;
    /// nil for protocols or when a kind is unknown.
    public var mangledName: String? {
        var text = "\(module.utf8.count)\(module)"
        for component in components {
            let suffix: String
            switch component.kind {
            case .class: suffix = "C"
            case .struct: suffix = "V"
            case .enum: suffix = "O"
            case .protocol, .anyNominal: return nil
            }
            text += "\(component.name.utf8.count)\(component.name)\(suffix)"
        }
        return text
    }

    /// Whether this path, as found in a binary, is what `reference` names: same names, and the same kind
    /// wherever the reference gives one.
    public func isNamed(by reference: SwiftTypePath) -> Bool {
        module == reference.module && components.count == reference.components.count
            && zip(components, reference.components).allSatisfy { found, wanted in
                found.name == wanted.name && (wanted.kind == .anyNominal || found.kind == wanted.kind)
            }
    }
}
