import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct BeeHiveMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModuleMacro.self, ServiceMacro.self, RouteMacro.self, TargetMacro.self,
    ]
}
