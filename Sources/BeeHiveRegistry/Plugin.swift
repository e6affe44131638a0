#if canImport(Glibc)
import Glibc
#endif

/// A shared library loaded at run time with `dlopen`.
///
/// The plugin must link the dynamic `BeeHive` library rather than a static copy of it: otherwise it brings its
/// own copy of every protocol, and its types do not conform to the host's protocols.
public struct Plugin: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    private let handle: UInt

    /// Loads the library; its annotations are registered on the next `AnnotationRegistry.refresh()`.
    public static func load(atPath path: String) throws(PluginError) -> Plugin {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw PluginError(path: path, operation: .load, reason: lastError())
        }
        return Plugin(path: path, handle: UInt(bitPattern: handle))
    }

    /// Drops this load's reference; the loader unmaps the library when no one else holds it.
    public func unload() throws(PluginError) {
        guard let pointer = UnsafeMutableRawPointer(bitPattern: handle) else { return }
        if dlclose(pointer) != 0 {
            throw PluginError(path: path, operation: .unload, reason: Plugin.lastError())
        }
    }

    public var description: String { path }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
    }
}

public struct PluginError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Operation: String, Sendable, Hashable { case load, unload }

    public let path: String
    public let operation: Operation
    /// The dynamic loader's message.
    public let reason: String

    public var description: String { "cannot \(operation.rawValue) plugin \(path): \(reason)" }
}
