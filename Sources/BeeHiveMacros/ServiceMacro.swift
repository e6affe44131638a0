import SwiftSyntax
import SwiftSyntaxMacros

/// `@BeeHiveService(HomeService.self, scope:name:)`: the record
/// `beehive:1|service|<Protocol>|<Type>|scope=…|name=…` in section `beehive_services`, as the C macro
/// `BeeHiveServiceScoped` writes it.
///
/// The protocol is recorded as `Module.Protocol`, the form the service manager compares with the protocol's
/// `String(reflecting:)`: an unqualified protocol is taken to be declared in the annotated type's module, a
/// qualified one (`Other.HomeService.self`) is kept as written. The expansion also checks at compile time that
/// the annotated type conforms to the protocol.
public struct ServiceMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let type = try RuntimeTypeName(of: declaration, macroName: "BeeHiveService", attribute: node, in: context)
        let arguments = LiteralArguments(node)
        guard let protocolExpression = arguments.expression(nil) else {
            throw AnnotationDiagnostic.badProtocol(node.trimmedDescription).error(at: node)
        }
        let written = try protocolComponents(protocolExpression)
        let protocolName = written.count == 1 ? "\(type.module).\(written[0])" : written.joined(separator: ".")
        let scope = try arguments.choice("scope", allowed: ["transient", "singleton", "named", "weak"]) ?? "transient"
        let name = try arguments.string("name")
        if let name, !RecordField.isName(name.value) {
            throw AnnotationDiagnostic.badName(argument: "service name", value: name.value).error(at: name.syntax)
        }
        if scope == "named" && name == nil {
            throw AnnotationDiagnostic.namedScopeWithoutName.error(at: node)
        }
        let text = "\(SectionRecord.version)|service|\(protocolName)|\(type.recordText)|scope=\(scope)|name=\(name?.value ?? "")"
        return SectionRecord(
            section: SectionRecord.services, text: text, type: type, conformance: "BeeHiveServices.ServiceImplementation"
        ).declarations(in: context, checkedConformance: written.joined(separator: "."))
    }

    /// `P.self`, `Module.P.self`, `(any P).self`: the protocol's name as written, one component per identifier.
    private static func protocolComponents(_ expression: ExprSyntax) throws -> [String] {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.tokenKind == .keyword(.self),
            let base = member.base
        else {
            throw AnnotationDiagnostic.badProtocol(expression.trimmedDescription).error(at: expression)
        }
        guard let components = names(in: base), !components.isEmpty else {
            throw AnnotationDiagnostic.badProtocol(expression.trimmedDescription).error(at: expression)
        }
        for component in components where !RuntimeTypeName.isPlainASCIIIdentifier(component) {
            throw AnnotationDiagnostic.nonASCIIIdentifier(component).error(at: expression)
        }
        return components
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
