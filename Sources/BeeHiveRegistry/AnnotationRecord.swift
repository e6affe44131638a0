import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// One annotation read from an ELF section, such as
/// `beehive:1|module|Shop.ShopModule|level=basic|priority=100|async=0`.
///
/// A record read from an object points into that section's bytes (shared by every record of the section) and
/// makes its strings when they are asked for: discovery validates every record at startup but creates no
/// string for it.
public struct AnnotationRecord: Sendable, Hashable, CustomStringConvertible {
    /// What the record declares.
    public enum Payload: Sendable, Hashable {
        case module(ModuleAnnotation)
        case service(ServiceAnnotation)
        case route(RouteAnnotation)
        case target(TargetAnnotation)
    }

    /// One reference either way, so that copying a record costs one retain.
    private enum Storage: Sendable {
        case inPlace(SectionBytes)
        case value(RecordValue)
    }

    /// A record made from Swift values rather than read from a section.
    private final class RecordValue: Sendable {
        let payload: Payload
        let text: String
        let origin: RecordOrigin

        init(payload: Payload, text: String, origin: RecordOrigin) {
            self.payload = payload
            self.text = text
            self.origin = origin
        }
    }

    private let storage: Storage
    /// Where the fields lie, for a record read in place; unused otherwise.
    private let layout: RecordLayout

    package init(payload: Payload, text: String, origin: RecordOrigin) {
        storage = .value(RecordValue(payload: payload, text: text, origin: origin))
        layout = RecordLayout(offset: origin.offset, start: 0, length: 0, kind: .module, name: RecordLayout.Span(start: 0, end: 0))
    }

    init(bytes: SectionBytes, layout: RecordLayout) {
        storage = .inPlace(bytes)
        self.layout = layout
    }

    /// Where the fields of a record read in place lie, for the plugin index cache to keep; nil for a record
    /// made from values.
    var cachedLayout: RecordLayout? {
        if case .inPlace = storage { layout } else { nil }
    }

    /// The section and offset of `origin`, without making the origin (its object path is not needed). A record
    /// read in place lies in its kind's section: the parser drops one found in another section as misplaced.
    var placement: (section: String, offset: Int) {
        switch storage {
        case .value(let value): (value.origin.section, value.origin.offset)
        case .inPlace: (layout.kind.section, layout.offset)
        }
    }

    /// The path of the object the record was read from, without making the rest of its origin.
    var objectPath: String {
        switch storage {
        case .value(let value): value.origin.objectPath
        case .inPlace(let bytes): bytes.objectPath
        }
    }

    public var origin: RecordOrigin {
        switch storage {
        case .value(let value): value.origin
        case .inPlace(let bytes): RecordOrigin(objectPath: bytes.objectPath, section: layout.kind.section, offset: layout.offset)
        }
    }

    /// What the record declares; its strings are made on each call.
    public var payload: Payload {
        switch storage {
        case .value(let value): value.payload
        case .inPlace(let bytes): layout.payload(in: bytes)
        }
    }

    /// The record exactly as stored, without its terminating NUL.
    public var text: String {
        switch storage {
        case .value(let value): value.text
        case .inPlace(let bytes): bytes.string(layout.start, layout.start + Int(layout.length))
        }
    }

    public var kind: AnnotationKind {
        switch storage {
        case .inPlace: layout.kind
        case .value(let value):
            switch value.payload {
            case .module: .module
            case .service: .service
            case .route: .route
            case .target: .target
            }
        }
    }

    /// What two records share when they declare the same thing: a module's type, a service's protocol and
    /// name, a route's scheme and pattern, a target's name.
    public var identity: RecordIdentity {
        if case .inPlace(let bytes) = storage { return layout.identity(in: bytes) }
        switch payload {
        case .module(let module): return RecordIdentity(kind: .module, name: module.typeName)
        case .service(let service): return RecordIdentity(kind: .service, name: service.protocolName, qualifier: service.name ?? "")
        case .route(let route): return RecordIdentity(kind: .route, name: route.pattern, qualifier: route.scheme ?? "")
        case .target(let target): return RecordIdentity(kind: .target, name: target.name)
        }
    }

    /// For a record read in place, its identity's name and qualifier as bytes of its section (valid while the
    /// record lives), with its object path and offset, all without making a string; nil for a record made from
    /// values. What the registry orders records by.
    var identityBytes: (name: UnsafeRawBufferPointer, qualifier: UnsafeRawBufferPointer, objectPath: String, offset: Int)? {
        guard case .inPlace(let bytes) = storage else { return nil }
        let (name, qualifier) = identitySlices(of: bytes)
        return (name, qualifier, bytes.objectPath, layout.offset)
    }

    /// For a record read in place, its identity's name and qualifier as bytes of its buffer (valid while the
    /// record lives), without retaining its object path; nil for a record made from values.
    var inPlaceIdentityBytes: (name: UnsafeRawBufferPointer, qualifier: UnsafeRawBufferPointer)? {
        guard case .inPlace(let bytes) = storage else { return nil }
        return identitySlices(of: bytes)
    }

    private func identitySlices(of bytes: SectionBytes) -> (name: UnsafeRawBufferPointer, qualifier: UnsafeRawBufferPointer) {
        let start = layout.start
        return (
            UnsafeRawBufferPointer(rebasing: bytes.buffer[(start + Int(layout.name.start))..<(start + Int(layout.name.end))]),
            UnsafeRawBufferPointer(
                rebasing: bytes.buffer[(start + Int(layout.qualifier.start))..<(start + Int(layout.qualifier.end))])
        )
    }

    /// The bytes of the record's identity's name and qualifier: in place for a record read from a section,
    /// without making a string (nor retaining the object path, as `identityBytes` does).
    func withIdentityBytes<Result>(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Result) -> Result {
        if let (name, qualifier) = inPlaceIdentityBytes { return body(name, qualifier) }
        var name = identity.name
        var qualifier = identity.qualifier
        return name.withUTF8 { name in
            qualifier.withUTF8 { qualifier in body(UnsafeRawBufferPointer(name), UnsafeRawBufferPointer(qualifier)) }
        }
    }

    /// Compares and hashes the record's bytes in place: records are dictionary keys throughout the hub, and
    /// making their text as a `String` for every lookup cost more than registering what they declare.
    public static func == (lhs: AnnotationRecord, rhs: AnnotationRecord) -> Bool {
        // Records of one buffer are the same record when they start at the same place in it: the common case,
        // in the hub's tables, decided without making their origins. The place, not the offset in the section:
        // a cached plugin's sections share one buffer, and each of them has a record at offset 0.
        if case .inPlace(let left) = lhs.storage, case .inPlace(let right) = rhs.storage, left === right {
            return lhs.layout.start == rhs.layout.start
        }
        guard lhs.origin == rhs.origin else { return false }
        let sameText = lhs.withTextBytes { left in
            rhs.withTextBytes { right in
                left.count == right.count
                    && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        guard sameText else { return false }
        // A record read in place has the payload its text parses to; one made from values may not.
        if case .inPlace = lhs.storage, case .inPlace = rhs.storage { return true }
        return lhs.payload == rhs.payload
    }

    /// Hashes the offset and the text, not the object path and section: equal records share them anyway, and
    /// hashing those strings cost more than the rest of the hash.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .inPlace: hasher.combine(layout.offset)
        case .value(let value): hasher.combine(value.origin.offset)
        }
        withTextBytes { hasher.combine(bytes: $0) }
    }

    /// The record's UTF-8 bytes, without making a `String` of a record read in place.
    package func withTextBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch storage {
        case .inPlace(let bytes):
            return body(UnsafeRawBufferPointer(rebasing: bytes.buffer[layout.start..<(layout.start + Int(layout.length))]))
        case .value(let value):
            var text = value.text
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    public var description: String { "\(text) (\(origin))" }
}

/// The identity of what a record declares, for finding duplicates and ordering records.
public struct RecordIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let kind: AnnotationKind
    public let name: String
    /// A service's name, or a route's scheme; empty when there is none.
    public let qualifier: String

    package init(kind: AnnotationKind, name: String, qualifier: String = "") {
        self.kind = kind
        self.name = name
        self.qualifier = qualifier
    }

    /// By kind, name and qualifier; field by field rather than as tuples, which copied the strings (a retain
    /// and a release each) in every comparison of the registry's sort.
    public static func < (lhs: RecordIdentity, rhs: RecordIdentity) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind.order < rhs.kind.order }
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return lhs.qualifier < rhs.qualifier
    }

    public var description: String {
        switch kind {
        case .module: "module \(name)"
        case .service: qualifier.isEmpty ? "service \(name)" : "service \(name) named \(qualifier)"
        case .route: qualifier.isEmpty ? "route \(name)" : "route \(qualifier):\(name)"
        case .target: "target \(name)"
        }
    }
}

public enum AnnotationKind: String, Sendable, Hashable, CaseIterable {
    case module, service, route, target

    var order: Int {
        switch self {
        case .module: 0
        case .service: 1
        case .route: 2
        case .target: 3
        }
    }

    /// The section a record of this kind must be stored in.
    @_spi(BeeHiveInternals) public var section: String {
        switch self {
        case .module: SectionName.modules
        case .service: SectionName.services
        case .route, .target: SectionName.routes
        }
    }
}

/// The sections the annotations write to, as `beehive.h` (the one source of the wire format) names them.
package enum SectionName {
    package static let modules = BEEHIVE_SECTION_MODULES
    package static let services = BEEHIVE_SECTION_SERVICES
    package static let routes = BEEHIVE_SECTION_ROUTES
    package static let all = [modules, services, routes]
    /// The Swift macros' compile-time type references: not records (see `TypeReferences`).
    package static let types = BEEHIVE_SECTION_TYPES
}

/// Where a record was found: the object file, the section and the byte offset inside that section.
public struct RecordOrigin: Sendable, Hashable, CustomStringConvertible {
    public let objectPath: String
    public let section: String
    public let offset: Int

    package init(objectPath: String, section: String, offset: Int) {
        self.objectPath = objectPath
        self.section = section
        self.offset = offset
    }

    public var description: String { "\(objectPath) [\(section)+\(offset)]" }
}

/// BeeHive's module levels: basic modules start before normal ones.
public enum ModuleLevel: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case basic
    case normal

    public static func < (lhs: ModuleLevel, rhs: ModuleLevel) -> Bool {
        lhs == .basic && rhs == .normal
    }
}

public struct ModuleAnnotation: Sendable, Hashable {
    public let typeName: String
    public let level: ModuleLevel
    public let priority: Int
    public let isAsync: Bool
    /// Modules it needs set up first (`depends=A,B`), added to those its type declares in code.
    public let dependencies: [String]
    /// Whether a plugin folder may load its plugin on first use rather than at launch (`ondemand=1`): it does
    /// when every module of the plugin is on-demand, and the modules catch up then.
    public let isOnDemand: Bool

    package init(
        typeName: String, level: ModuleLevel = .normal, priority: Int = 0, isAsync: Bool = false, dependencies: [String] = [],
        isOnDemand: Bool = false
    ) {
        self.typeName = typeName
        self.level = level
        self.priority = priority
        self.isAsync = isAsync
        self.dependencies = dependencies
        self.isOnDemand = isOnDemand
    }
}

/// How long a service implementation lives.
public enum ServiceScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// A new instance for every lookup.
    case transient
    /// One instance for the process (BeeHive's `singleton`/`shareInstance`).
    case singleton
    /// One instance per service name (BeeHive's `serviceName`).
    case named
    /// Shared while someone holds it, created again once every holder let it go.
    case weak
}

public struct ServiceAnnotation: Sendable, Hashable {
    public let protocolName: String
    public let typeName: String
    public let scope: ServiceScope
    public let name: String?

    package init(protocolName: String, typeName: String, scope: ServiceScope = .transient, name: String? = nil) {
        self.protocolName = protocolName
        self.typeName = typeName
        self.scope = scope
        self.name = name
    }
}

public struct RouteAnnotation: Sendable, Hashable {
    public let pattern: String
    public let typeName: String
    /// nil for the global route table.
    public let scheme: String?
    public let priority: Int

    package init(pattern: String, typeName: String, scheme: String? = nil, priority: Int = 0) {
        self.pattern = pattern
        self.typeName = typeName
        self.scheme = scheme
        self.priority = priority
    }
}

/// A target for target-action calls through the mediator.
public struct TargetAnnotation: Sendable, Hashable {
    public let name: String
    public let typeName: String

    package init(name: String, typeName: String) {
        self.name = name
        self.typeName = typeName
    }
}
