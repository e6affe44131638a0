/// An object file (the executable, a shared library, a plugin) as discovery saw it.
public struct LoadedObject: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Unique for this load of this object in this process; 0 for files read offline.
    public let id: UInt64
    public let path: String
    /// The GNU build-id in hex, when the object has one.
    public let buildID: String?
    public let baseAddress: UInt

    package init(id: UInt64, path: String, buildID: String?, baseAddress: UInt) {
        self.id = id
        self.path = path
        self.buildID = buildID
        self.baseAddress = baseAddress
    }

    public var description: String { path }
}

/// What one object carries: its records, and what was wrong with it.
public struct ObjectAnnotations: Sendable, Hashable {
    public let object: LoadedObject
    /// Whether the object carries the BeeHive note that marks annotated objects.
    public let isAnnotated: Bool
    public let records: AnnotationRecords
    public let diagnostics: [RegistryDiagnostic]

    package init(object: LoadedObject, isAnnotated: Bool, records: [AnnotationRecord], diagnostics: [RegistryDiagnostic]) {
        self.init(object: object, isAnnotated: isAnnotated, records: AnnotationRecords(records), diagnostics: diagnostics)
    }

    init(object: LoadedObject, isAnnotated: Bool, records: AnnotationRecords, diagnostics: [RegistryDiagnostic]) {
        self.object = object
        self.isAnnotated = isAnnotated
        self.records = records
        self.diagnostics = diagnostics
    }
}

/// A change in the set of loaded objects.
@_spi(BeeHiveInternals) @_spi(Benchmarks)
public enum ObjectEvent: Sendable, Hashable {
    case loaded(ObjectAnnotations)
    case unloaded(LoadedObject)
}
