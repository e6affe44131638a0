import SwiftSyntax
import SwiftSyntaxMacros

/// The name an annotation records for a type: one that `_typeByName` turns back into that type at run time.
///
/// A class declared at the top level of its module is written `Module.Class`, as in the C annotations, because
/// the runtime resolves that dotted form for top-level classes. Every other type (structs, enums, nested types)
/// is written as its mangled name without the `$s` prefix, for example `4Shop4CartV` or `4Shop5OuterC5InnerV`,
/// because the dotted form does not resolve them.
struct RuntimeTypeName: Equatable {
    /// The mangling suffix of one component's kind; `XY` (any nominal type) when only the name is known, as for
    /// the type an extension extends.
    enum Kind: String {
        case `class` = "C"
        case `struct` = "V"
        case `enum` = "O"
        case anyNominal = "XY"
    }

    struct Component: Equatable {
        let name: String
        let kind: Kind
    }

    let module: String
    /// Outermost first; the last one is the annotated type.
    let components: [Component]

    /// The text stored in the record.
    var recordText: String {
        if components.count == 1, components[0].kind == .class {
            return "\(module).\(components[0].name)"
        }
        return components.reduce("\(module.utf8.count)\(module)") { mangled, component in
            mangled + "\(component.name.utf8.count)\(component.name)\(component.kind.rawValue)"
        }
    }

    /// The name of the type `declaration`, as seen from where the macro attached to it is expanded.
    init(
        of declaration: some DeclGroupSyntax, macroName: String, attribute: AttributeSyntax,
        in context: some MacroExpansionContext
    ) throws {
        guard let (name, kind) = Self.nominal(declaration) else {
            throw AnnotationDiagnostic.notANominalType(macro: macroName).error(at: attribute)
        }
        let displayName = name.text
        if let generics = (declaration.asProtocol(WithGenericParametersSyntax.self))?.genericParameterClause {
            throw AnnotationDiagnostic.genericType(name: displayName).error(at: generics)
        }
        if Self.isPrivate(declaration.modifiers) {
            throw AnnotationDiagnostic.privateType(name: displayName).error(at: declaration.modifiers)
        }
        module = try Self.moduleName(of: attribute, in: context)
        var components = [Component(name: try Self.identifier(name), kind: kind)]
        var enclosing = context.lexicalContext[...]
        // The compiler may list the annotated declaration itself as the innermost context.
        if let first = enclosing.first, Self.isSameDeclaration(first, declaration) { enclosing = enclosing.dropFirst() }
        for syntax in enclosing {
            if let (outerName, outerKind) = Self.nominal(syntax) {
                if syntax.asProtocol(WithGenericParametersSyntax.self)?.genericParameterClause != nil {
                    throw AnnotationDiagnostic.insideGenericType(name: displayName).error(at: name)
                }
                if let group = syntax.asProtocol(DeclGroupSyntax.self), Self.isPrivate(group.modifiers) {
                    throw AnnotationDiagnostic.privateType(name: outerName.text).error(at: name)
                }
                components.insert(Component(name: try Self.identifier(outerName), kind: outerKind), at: 0)
            } else if let extensionDecl = syntax.as(ExtensionDeclSyntax.self) {
                if Self.isPrivate(extensionDecl.modifiers) {
                    throw AnnotationDiagnostic.privateType(name: displayName).error(at: extensionDecl.modifiers)
                }
                components.insert(contentsOf: try Self.extendedComponents(extensionDecl.extendedType, module: module), at: 0)
            } else if syntax.is(ProtocolDeclSyntax.self) {
                throw AnnotationDiagnostic.insideProtocol(name: displayName).error(at: name)
            } else {
                throw AnnotationDiagnostic.localType(name: displayName).error(at: name)
            }
        }
        self.components = components
    }

    private static func nominal(_ syntax: some SyntaxProtocol) -> (TokenSyntax, Kind)? {
        if let decl = syntax.as(ClassDeclSyntax.self) { return (decl.name, .class) }
        // Actors are classes to the runtime.
        if let decl = syntax.as(ActorDeclSyntax.self) { return (decl.name, .class) }
        if let decl = syntax.as(StructDeclSyntax.self) { return (decl.name, .struct) }
        if let decl = syntax.as(EnumDeclSyntax.self) { return (decl.name, .enum) }
        return nil
    }

    private static func isSameDeclaration(_ context: Syntax, _ declaration: some DeclGroupSyntax) -> Bool {
        guard let contextGroup = context.asProtocol(DeclGroupSyntax.self) else { return false }
        let empty = MemberBlockSyntax(members: MemberBlockItemListSyntax())
        return contextGroup.with(\.memberBlock, empty).trimmedDescription
            == declaration.detached.with(\.memberBlock, empty).trimmedDescription
    }

    private static func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }
    }

    /// An extension's extended type is written by name only; the kinds of its components are unknown.
    /// A leading component naming this module is the module itself.
    private static func extendedComponents(_ type: TypeSyntax, module: String) throws -> [Component] {
        var names: [TokenSyntax] = []
        var current = type
        while true {
            if let member = current.as(MemberTypeSyntax.self), member.genericArgumentClause == nil {
                names.insert(member.name, at: 0)
                current = member.baseType
            } else if let identifier = current.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
                names.insert(identifier.name, at: 0)
                break
            } else {
                throw AnnotationDiagnostic.unsupportedExtendedType(type.trimmedDescription).error(at: type)
            }
        }
        if names.count > 1, names[0].identifier?.name == module { names.removeFirst() }
        return try names.map { Component(name: try identifier($0), kind: .anyNominal) }
    }

    /// The identifier as the runtime knows it: without backticks, ASCII only (others need Punycode).
    private static func identifier(_ token: TokenSyntax) throws -> String {
        let name = token.identifier?.name ?? token.text
        guard isPlainASCIIIdentifier(name) else {
            throw AnnotationDiagnostic.nonASCIIIdentifier(name).error(at: token)
        }
        return name
    }

    static func isPlainASCIIIdentifier(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, !("0"..."9").contains(first) else { return false }
        return scalars.allSatisfy { scalar in
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
    }

    /// The module comes from the `#fileID` of the attribute, "Module/File.swift", which the compiler forms from
    /// the module being compiled: the user never types it.
    private static func moduleName(of attribute: AttributeSyntax, in context: some MacroExpansionContext) throws -> String {
        guard let file = context.location(of: attribute, at: .afterLeadingTrivia, filePathMode: .fileID)?.file,
            let literal = file.as(StringLiteralExprSyntax.self), let fileID = literal.representedLiteralValue,
            let slash = fileID.firstIndex(of: "/")
        else {
            throw AnnotationDiagnostic.unknownModule.error(at: attribute)
        }
        let module = String(fileID[..<slash])
        guard isPlainASCIIIdentifier(module) else {
            throw AnnotationDiagnostic.nonASCIIIdentifier(module).error(at: attribute)
        }
        return module
    }
}
