import SwiftSyntax

/// A type named in an attribute argument as `T.self`, `Module.T.self` or `(any P).self`, and the name the
/// managers know it by (`String(reflecting:)` or `_typeName(qualified: true)`): an unqualified name is taken to
/// be declared in the annotated type's module, a qualified one is kept as written.
struct WrittenTypeName {
    /// As written, one component per identifier.
    let components: [String]

    /// `expression` must be a metatype literal; otherwise `failure` is thrown at it.
    init(_ expression: ExprSyntax, orElse failure: AnnotationDiagnostic) throws {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
            let base = member.base, let components = Self.names(in: base), !components.isEmpty
        else {
            throw failure.error(at: expression)
        }
        for component in components where !RuntimeTypeName.isPlainASCIIIdentifier(component) {
            throw AnnotationDiagnostic.nonASCIIIdentifier(component).error(at: expression)
        }
        self.components = components
    }

    /// The name as written, to refer to the type in expanded code.
    var source: String { components.joined(separator: ".") }

    /// The module-qualified name, with `module` the annotated type's module.
    func qualified(in module: String) -> String {
        components.count == 1 ? "\(module).\(components[0])" : source
    }

    private static func names(in expression: ExprSyntax) -> [String]? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            return [reference.baseName.identifier?.name ?? reference.baseName.text]
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return names(in: base).map { $0 + [member.declName.baseName.identifier?.name ?? member.declName.baseName.text] }
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.label == nil
        {
            return names(in: only.expression)
        }
        if let typeExpression = expression.as(TypeExprSyntax.self) { return names(in: typeExpression.type) }
        return nil
    }

    private static func names(in type: TypeSyntax) -> [String]? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return [identifier.name.identifier?.name ?? identifier.name.text]
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil {
            return names(in: member.baseType).map { $0 + [member.name.identifier?.name ?? member.name.text] }
        }
        if let existential = type.as(SomeOrAnyTypeSyntax.self), existential.someOrAnySpecifier.tokenKind == .keyword(.any) {
            return names(in: existential.constraint)
        }
        return nil
    }
}
