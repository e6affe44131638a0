import SwiftSyntax
import SwiftSyntaxMacros

/// `@BeeHiveModule(level:priority:async:dependencies:onDemand:)`: the record
/// `beehive:1|module|<Type>|level=…|priority=…|async=…[|depends=<Type>,…][|ondemand=1]` in section `beehive_mods`,
/// as the C macros `BeeHiveModule`, `BeeHiveModuleDepends` and their `OnDemand` forms write it.
///
/// A dependency is recorded by the name the module manager knows it by (`Module.moduleName`): an unqualified
/// type is taken to be declared in the annotated type's module, a qualified one (`Net.NetworkModule.self`,
/// `Shop.Outer.Inner.self`) is kept as written. The expansion checks at compile time that each is a module.
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
        let dependencies = try dependencies(arguments)
        let isOnDemand = try arguments.boolean("onDemand") ?? false
        var text = "\(SectionRecord.version)|module|\(type.recordText)|level=\(level)|priority=\(priority)|async=\(isAsync ? 1 : 0)"
        var recorded: [String] = []
        for name in dependencies.map({ $0.qualified(in: type.module) }) where !recorded.contains(name) {
            recorded.append(name)
        }
        if !recorded.isEmpty {
            text += "|\(SectionRecord.dependsAttribute)=" + recorded.joined(separator: ",")
        }
        // Written only when set, so that launch modules keep the records they always had.
        if isOnDemand { text += "|\(SectionRecord.onDemandAttribute)=1" }
        var declarations = SectionRecord(section: SectionRecord.modules, text: text, type: type, conformance: "BeeHiveModules.Module")
            .declarations(in: context)
        if !dependencies.isEmpty {
            // Never called: it only makes the compiler check that each dependency exists and is a module.
            let list = dependencies.map { "\($0.source).self" }.joined(separator: ", ")
            declarations.append(
                """
                private static func \(context.makeUniqueName("beeHiveDependencies"))() -> [any BeeHiveModules.Module.Type] { [\(raw: list)] }
                """)
        }
        return declarations
    }

    /// `dependencies: [NetworkModule.self, Net.AccountModule.self]`, in the order written.
    private static func dependencies(_ arguments: LiteralArguments) throws -> [WrittenTypeName] {
        guard let expression = arguments.expression("dependencies") else { return [] }
        guard let array = expression.as(ArrayExprSyntax.self) else {
            throw AnnotationDiagnostic.notALiteral(argument: "dependencies", expected: "an array of module types such as [NetworkModule.self]")
                .error(at: expression)
        }
        return try array.elements.map { element in
            try WrittenTypeName(element.expression, orElse: .badDependency(element.expression.trimmedDescription))
        }
    }
}
