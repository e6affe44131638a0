#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A shared library loaded at run time with `dlopen`.
///
/// The plugin must link the dynamic `BeeHive` library rather than a static copy of it: otherwise it brings its
/// own copy of every protocol, and its types do not conform to the host's protocols.
///
/// A library that carries Swift code can never be unmapped: the Swift runtime keeps pointers into the metadata
/// of every image it has seen and has no way to forget one, so unmapping it makes a later cast or type lookup
/// crash. Such a plugin is loaded for the life of the process (`staysLoaded`): `unload()` drops the handle, the
/// library stays mapped, and its annotations stay registered. Every library linked by `swiftc` counts, even one
/// built from C targets only, since the Swift driver links the runtime's image registration into it.
public final class Plugin: Sendable, CustomStringConvertible {
    public let path: String
    /// Whether the library stays mapped after `unload()` because the Swift runtime has registered it.
    public let staysLoaded: Bool
    private let handle: Mutex<UInt?>

    private init(path: String, handle: UInt, staysLoaded: Bool) {
        self.path = path
        self.handle = Mutex(handle)
        self.staysLoaded = staysLoaded
    }

    /// Loads the library; its annotations are registered on the next `AnnotationRegistry.refresh()`.
    public static func load(atPath path: String) throws(PluginError) -> Plugin {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw PluginError(path: path, operation: .load, reason: lastError())
        }
        // swiftrt.o, which swiftc links into every image, registers the image with the runtime through this
        // function, so finding it in the library's scope means the runtime may hold pointers into the library.
        let registersWithSwiftRuntime = dlsym(handle, "swift_addNewDSOImage") != nil
        if registersWithSwiftRuntime {
            guard let pinned = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE) else {
                let reason = lastError()
                dlclose(handle)
                throw PluginError(path: path, operation: .load, reason: "cannot keep the library loaded: \(reason)")
            }
            // The second handle only marked the library NODELETE; one handle is enough to release later.
            dlclose(pinned)
        }
        return Plugin(path: path, handle: UInt(bitPattern: handle), staysLoaded: registersWithSwiftRuntime)
    }

    /// Drops this load's reference. The loader unmaps the library when no one else holds it, unless it
    /// `staysLoaded`. Calling it again does nothing.
    public func unload() throws(PluginError) {
        let taken = handle.withLock { handle in
            defer { handle = nil }
            return handle
        }
        guard let taken, let pointer = UnsafeMutableRawPointer(bitPattern: taken) else { return }
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

    public var description: String {
        switch operation {
        case .load:
            "cannot load plugin \(path): \(reason); check the path, and that the plugin links the BeeHive library and everything else it needs"
        case .unload: "cannot unload plugin \(path): \(reason)"
        }
    }
}
