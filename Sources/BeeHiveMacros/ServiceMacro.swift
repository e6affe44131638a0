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
        let written = try WrittenTypeName(protocolExpression, orElse: .badProtocol(protocolExpression.trimmedDescription))
        let protocolName = written.qualified(in: type.module)
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
        ).declarations(in: context, checkedConformance: written.source, protocolReference: (protocolName, written.source))
    }
}
