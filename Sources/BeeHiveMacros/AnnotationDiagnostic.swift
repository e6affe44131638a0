import SwiftDiagnostics
import SwiftSyntax

/// Why an annotation cannot be written. Each message says what to change.
enum AnnotationDiagnostic: DiagnosticMessage, Error {
    case notANominalType(macro: String)
    case genericType(name: String)
    case insideGenericType(name: String)
    case localType(name: String)
    case privateType(name: String)
    case insideProtocol(name: String)
    case nonASCIIIdentifier(String)
    case unsupportedExtendedType(String)
    case unknownModule
    case notALiteral(argument: String, expected: String)
    case badChoice(argument: String, value: String, allowed: [String])
    case integerOutOfRange(argument: String)
    case badRoutePattern(String)
    case badScheme(String)
    case badName(argument: String, value: String)
    case namedScopeWithoutName
    case badProtocol(String)
    case badDependency(String)

    var message: String {
        switch self {
        case .notANominalType(let macro):
            "@\(macro) can only be attached to a class, struct, enum or actor declaration"
        case .genericType(let name):
            "'\(name)' is generic; the runtime cannot create a generic type from its name: annotate a non-generic subclass or wrapper"
        case .insideGenericType(let name):
            "'\(name)' is nested in generic type; the runtime cannot find it by name: move it out of the generic type"
        case .localType(let name):
            "'\(name)' is a local type; the runtime cannot find it by name: declare it at file scope or inside another type"
        case .privateType(let name):
            "'\(name)' is private or fileprivate; its runtime name carries a per-file discriminator that cannot be written in an annotation: make it internal or public"
        case .insideProtocol(let name):
            "'\(name)' cannot be annotated inside a protocol"
        case .nonASCIIIdentifier(let name):
            "'\(name)' is not an ASCII identifier; its runtime name needs Punycode, which annotations do not support: rename it with ASCII letters, digits and '_'"
        case .unsupportedExtendedType(let type):
            "types nested in 'extension \(type)' cannot be annotated: extend the type by its plain name (extension Outer.Inner) without generic arguments"
        case .unknownModule:
            "the module name of this file is unknown, so the annotated type's runtime name cannot be formed"
        case .notALiteral(let argument, let expected):
            "'\(argument)' must be \(expected) written in place: annotations are stored at compile time"
        case .badChoice(let argument, let value, let allowed):
            "'\(value)' is not a valid \(argument): use \(allowed.map { "." + $0 }.joined(separator: ", "))"
        case .integerOutOfRange(let argument):
            "'\(argument)' must fit in 18 decimal digits"
        case .badRoutePattern(let pattern):
            "route pattern \"\(pattern)\" must be non-empty and contain no spaces, control characters or '|'"
        case .badScheme(let scheme):
            "scheme \"\(scheme)\" must start with an ASCII letter followed by ASCII letters, digits, '+', '-' or '.'"
        case .badName(let argument, let value):
            "\(argument) \"\(value)\" must be non-empty and contain only ASCII letters, digits, '_', '-' or '.'"
        case .namedScopeWithoutName:
            "scope .named needs a name: add name: \"...\""
        case .badProtocol(let text):
            "'\(text)' must name the service protocol as Protocol.self or Module.Protocol.self"
        case .badDependency(let text):
            "'\(text)' must name a module type as Type.self, or Module.Type.self for one of another module or nested in a type"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "BeeHiveMacros", id: "\(self)".prefix { $0 != "(" }.description)
    }

    var severity: DiagnosticSeverity { .error }

    /// The diagnostic pinned to the node that is wrong, thrown from an expansion.
    func error(at node: some SyntaxProtocol) -> DiagnosticsError {
        DiagnosticsError(diagnostics: [Diagnostic(node: Syntax(node), message: self)])
    }
}
