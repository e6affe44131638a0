import SwiftSyntax
import SwiftSyntaxMacros

/// `@BeeHiveRoute("/user/view/:id", scheme:priority:)`: the record
/// `beehive:1|route|<pattern>|<Type>|scheme=…|priority=…` in section `beehive_routes`, as the C macro
/// `BeeHiveRouteScoped` writes it. No scheme (or `nil`) means the global route table.
public struct RouteMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let type = try RuntimeTypeName(of: declaration, macroName: "BeeHiveRoute", attribute: node, in: context)
        let arguments = LiteralArguments(node)
        guard let pattern = try arguments.string(nil) else {
            throw AnnotationDiagnostic.notALiteral(argument: "pattern", expected: "a string literal").error(at: node)
        }
        guard RecordField.isRoutePattern(pattern.value) else {
            throw AnnotationDiagnostic.badRoutePattern(pattern.value).error(at: pattern.syntax)
        }
        let scheme = try arguments.string("scheme")
        if let scheme, !RecordField.isScheme(scheme.value) {
            throw AnnotationDiagnostic.badScheme(scheme.value).error(at: scheme.syntax)
        }
        let priority = try arguments.integer("priority") ?? 0
        let text = "\(SectionRecord.version)|route|\(pattern.value)|\(type.recordText)|scheme=\(scheme?.value ?? "")|priority=\(priority)"
        return SectionRecord(section: SectionRecord.routes, text: text, type: type, conformance: "BeeHiveRouter.RouteHandler").declarations(in: context)
    }
}
