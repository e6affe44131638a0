import SwiftSyntax
import SwiftSyntaxMacros

/// `@BeeHiveTarget("name")`: the record `beehive:1|target|<name>|<Type>` in section `beehive_routes`, as the C
/// macro `BeeHiveTarget` writes it.
public struct TargetMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let type = try RuntimeTypeName(of: declaration, macroName: "BeeHiveTarget", attribute: node, in: context)
        guard let name = try LiteralArguments(node).string(nil) else {
            throw AnnotationDiagnostic.notALiteral(argument: "name", expected: "a string literal").error(at: node)
        }
        guard RecordField.isName(name.value) else {
            throw AnnotationDiagnostic.badName(argument: "target name", value: name.value).error(at: name.syntax)
        }
        let text = "\(SectionRecord.version)|target|\(name.value)|\(type.recordText)"
        return SectionRecord(section: SectionRecord.routes, text: text, type: type, conformance: "BeeHiveRouter.MediatorTarget").declarations(in: context)
    }
}
