/// What one refresh changed.
public struct RegistryUpdate: Sendable, Hashable {
    public var loadedObjects: [LoadedObject] = []
    public var unloadedObjects: [LoadedObject] = []
    /// Records of the objects that arrived, in a deterministic order.
    public var added: [AnnotationRecord] = []
    /// Records of the objects that went away.
    public var removed: [AnnotationRecord] = []
    public var diagnostics: [RegistryDiagnostic] = []

    package init() {}

    public var isEmpty: Bool { loadedObjects.isEmpty && unloadedObjects.isEmpty && diagnostics.isEmpty }
}
