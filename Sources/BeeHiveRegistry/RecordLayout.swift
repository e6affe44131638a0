/// Where a validated record's fields lie in its section, and the values already converted: what a record
/// keeps instead of strings, which it makes only when asked.
struct RecordLayout: Sendable {
    /// A field, from the record's first byte.
    struct Span: Sendable {
        var start: UInt16
        var end: UInt16

        var isEmpty: Bool { start == end }
    }

    /// The record's offset in its section.
    var offset: Int
    /// Where its bytes start in its `SectionBytes`: `offset`, unless the record was copied on its own.
    var start: Int
    /// Which of its object's sections holds it, in `AnnotationRecords`.
    var section: UInt8 = 0
    var length: UInt16
    var kind: AnnotationKind
    /// The module type, service protocol, route pattern or target name.
    var name: Span
    /// The service, route handler or target type; for a module, its `depends` list (empty when none).
    var type = Span(start: 0, end: 0)
    /// The service name or route scheme; empty when not given or empty. Not an optional: the parser copies
    /// layouts, and an optional's odd size made those copies stall.
    var qualifier = Span(start: 0, end: 0)
    var priority = 0
    var level = ModuleLevel.normal
    var isAsync = false
    var isOnDemand = false
    var scope = ServiceScope.transient

    /// What an array slot holds before a record is parsed into it.
    static let unparsed = RecordLayout(offset: 0, start: 0, length: 0, kind: .module, name: Span(start: 0, end: 0))

    func string(_ span: Span, in bytes: SectionBytes) -> String {
        bytes.string(start + Int(span.start), start + Int(span.end))
    }

    func payload(in bytes: SectionBytes) -> AnnotationRecord.Payload {
        switch kind {
        case .module:
            .module(
                ModuleAnnotation(
                    typeName: string(name, in: bytes), level: level, priority: priority, isAsync: isAsync,
                    dependencies: type.start == type.end
                        ? [] : string(type, in: bytes).split(separator: ",").map(String.init),
                    isOnDemand: isOnDemand))
        case .service:
            .service(
                ServiceAnnotation(
                    protocolName: string(name, in: bytes), typeName: string(type, in: bytes), scope: scope,
                    name: qualifier.isEmpty ? nil : string(qualifier, in: bytes)))
        case .route:
            .route(
                RouteAnnotation(
                    pattern: string(name, in: bytes), typeName: string(type, in: bytes),
                    scheme: qualifier.isEmpty ? nil : string(qualifier, in: bytes), priority: priority))
        case .target:
            .target(TargetAnnotation(name: string(name, in: bytes), typeName: string(type, in: bytes)))
        }
    }

    func identity(in bytes: SectionBytes) -> RecordIdentity {
        RecordIdentity(kind: kind, name: string(name, in: bytes), qualifier: qualifier.isEmpty ? "" : string(qualifier, in: bytes))
    }
}
