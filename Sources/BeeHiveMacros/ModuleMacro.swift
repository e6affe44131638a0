import SwiftSyntax
import SwiftSyntaxMacros

/// `@BeeHiveModule(level:priority:async:)`: the record `beehive:1|module|<Type>|level=…|priority=…|async=…` in
/// section `beehive_mods`, as the C macro `BeeHiveModule` writes it.
public struct ModuleMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let type = try RuntimeTypeName(of: declaration, macroName: "BeeHiveModule", attribute: node, in: context)
        let arguments = LiteralArguments(node)
        let level = try arguments.choice("level", allowed: ["basic", "normal"]) ?? "normal"
        let priority = try arguments.integer("priority") ?? 0
        let isAsync = try arguments.boolean("async") ?? false
        let text = "\(SectionRecord.version)|module|\(type.recordText)|level=\(level)|priority=\(priority)|async=\(isAsync ? 1 : 0)"
        return SectionRecord(section: SectionRecord.modules, text: text, type: type, conformance: "BeeHiveModules.Module").declarations(in: context)
    }
}
