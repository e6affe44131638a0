/// Where a registry gets object events from. The process's loaded objects in production; anything in tests.
public protocol AnnotationSource: Sendable {
    /// The objects loaded and unloaded since the previous call.
    func poll() -> [ObjectEvent]
}

/// The objects loaded in this process, found by the shim's constructor and by later rescans.
///
/// Only one instance should poll: the shim hands each event out once. `AnnotationRegistry.shared` is it.
public struct LoadedObjectsSource: AnnotationSource {
    public init() {}

    public func poll() -> [ObjectEvent] { SectionReader.pollLoadedObjects() }
}
