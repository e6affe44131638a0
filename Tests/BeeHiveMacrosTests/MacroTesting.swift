import BeeHiveMacros
@_spi(BeeHiveInternals) import BeeHiveRegistry
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under their attribute names, as `BeeHiveAnnotations` declares them.
let beeHiveMacros: [String: MacroSpec] = [
    "BeeHiveModule": MacroSpec(type: ModuleMacro.self),
    "BeeHiveService": MacroSpec(type: ServiceMacro.self),
    "BeeHiveRoute": MacroSpec(type: RouteMacro.self),
    "BeeHiveTarget": MacroSpec(type: TargetMacro.self),
]

/// swift-syntax's expansion assertion, reporting to Swift Testing.
func assertExpansion(
    _ source: String, expandedSource: String, diagnostics: [DiagnosticSpec] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: beeHiveMacros,
        testModuleName: "Shop", testFileName: "Annotated.swift", indentationWidth: .spaces(4),
        failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
}

/// One record the expansion stores: the section named by its `@section` attribute and the text its bytes spell.
struct ExpandedRecord: Equatable, CustomStringConvertible {
    let section: String
    let text: String
    var description: String { "\(section): \(text)" }
}

/// Expands `source` and decodes every record the expansion stores from its tuple of byte literals, the way
/// the linker will lay them out; the BeeHive notes and the type references are counted apart.
func expandedRecords(_ source: String) -> (records: [ExpandedRecord], notes: Int, references: Int, errors: [String]) {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
        sourceFiles: [file: .init(moduleName: "Shop", fullFilePath: "Annotated.swift")])
    let expanded = file.expand(
        macroSpecs: beeHiveMacros,
        contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) })
    let collector = RecordCollector(viewMode: .sourceAccurate)
    collector.walk(expanded)
    return (collector.records, collector.notes, collector.references, context.diagnostics.map(\.message))
}

/// The source after expansion, as text.
func expandedText(_ source: String) -> String {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
        sourceFiles: [file: .init(moduleName: "Shop", fullFilePath: "Annotated.swift")])
    return file.expand(
        macroSpecs: beeHiveMacros,
        contextGenerator: { BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts()) }
    ).description
}

private final class RecordCollector: SyntaxVisitor {
    var records: [ExpandedRecord] = []
    var notes = 0
    var references = 0

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let section = node.attributes.compactMap { element -> String? in
            guard case .attribute(let attribute) = element, attribute.attributeName.trimmedDescription == "section",
                let arguments = attribute.arguments?.as(LabeledExprListSyntax.self),
                let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self)
            else { return nil }
            return literal.representedLiteralValue
        }.first
        guard let section else { return .skipChildren }
        if section == ".note.beehive" {
            notes += 1
            return .skipChildren
        }
        if section == "beehive_types" {
            references += 1
            return .skipChildren
        }
        let bytes = node.bindings.first?.initializer?.value.as(TupleExprSyntax.self)?.elements.compactMap {
            $0.expression.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue.map(UInt8.init)
        } ?? []
        if bytes.last == 0 {
            records.append(ExpandedRecord(section: section, text: String(decoding: bytes.dropLast(), as: UTF8.self)))
        } else {
            records.append(ExpandedRecord(section: section, text: "<not NUL-terminated>"))
        }
        return .skipChildren
    }
}

/// The record as discovery will parse it, from the section the expansion put it in.
func parsed(_ record: ExpandedRecord) throws -> AnnotationRecord {
    try RecordParser.parse(
        bytes: Array(record.text.utf8), origin: RecordOrigin(objectPath: "Shop", section: record.section, offset: 0)
    ).get()
}
