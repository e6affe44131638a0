import SwiftSyntax

/// Reads a macro attribute's arguments. Records are written at compile time, so every value must be a literal
/// (or an enum case) written in the attribute itself.
struct LiteralArguments {
    private let list: LabeledExprListSyntax

    init(_ attribute: AttributeSyntax) {
        list = attribute.arguments?.as(LabeledExprListSyntax.self) ?? LabeledExprListSyntax()
    }

    /// The expression of the argument with this label; `nil` for the unlabeled one.
    func expression(_ label: String?) -> ExprSyntax? {
        list.first { $0.label?.text == label }?.expression
    }

    /// An enum case written `.case` or `Type.case`.
    func choice(_ label: String, allowed: [String]) throws -> String? {
        guard let expression = expression(label), !expression.is(NilLiteralExprSyntax.self) else { return nil }
        guard let member = expression.as(MemberAccessExprSyntax.self) else {
            throw AnnotationDiagnostic.notALiteral(argument: label, expected: "a case such as .\(allowed[0])")
                .error(at: expression)
        }
        let name = member.declName.baseName.text
        guard allowed.contains(name) else {
            throw AnnotationDiagnostic.badChoice(argument: label, value: name, allowed: allowed).error(at: expression)
        }
        return name
    }

    func integer(_ label: String) throws -> Int? {
        guard let expression = expression(label) else { return nil }
        var literal = expression.as(IntegerLiteralExprSyntax.self)
        var sign = 1
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            literal = prefix.expression.as(IntegerLiteralExprSyntax.self)
            sign = -1
        }
        guard let literal else {
            throw AnnotationDiagnostic.notALiteral(argument: label, expected: "an integer literal").error(at: expression)
        }
        // The record parser reads at most 18 digits, so every written priority fits an Int.
        guard let value = literal.representedLiteralValue, value < 1_000_000_000_000_000_000 else {
            throw AnnotationDiagnostic.integerOutOfRange(argument: label).error(at: expression)
        }
        return sign * value
    }

    func boolean(_ label: String) throws -> Bool? {
        guard let expression = expression(label) else { return nil }
        guard let literal = expression.as(BooleanLiteralExprSyntax.self) else {
            throw AnnotationDiagnostic.notALiteral(argument: label, expected: "true or false").error(at: expression)
        }
        return literal.literal.tokenKind == .keyword(.true)
    }

    /// A string literal without interpolation; `nil` when absent or written `nil`.
    func string(_ label: String?) throws -> (value: String, syntax: ExprSyntax)? {
        guard let expression = expression(label), !expression.is(NilLiteralExprSyntax.self) else { return nil }
        guard let value = expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
            throw AnnotationDiagnostic.notALiteral(argument: label ?? "the first argument", expected: "a string literal without interpolation")
                .error(at: expression)
        }
        return (value, expression)
    }
}
