#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A shared library loaded at run time with `dlopen`.
///
/// The plugin must link the dynamic `BeeHive` library rather than a static copy of it: otherwise it brings its
/// own copy of every protocol, and its types do not conform to the host's protocols.
///
/// A plugin is known by its dynamic loader entry (`identity`), not by the path it was loaded from: a symlink, a
/// relative path or a second spelling of the same file name the same loaded object.
///
/// A library that carries Swift code can never be unmapped: the Swift runtime keeps pointers into the metadata
/// of every image it has seen and has no way to forget one, so unmapping it makes a later cast or type lookup
/// crash. Such a plugin is loaded for the life of the process (`staysLoaded`): `unload()` drops the handle, the
/// library stays mapped, and its annotations stay registered. Every library linked by `swiftc` counts, even one
/// built from C targets only, since the Swift driver links the runtime's image registration into it.
public final class Plugin: Sendable, CustomStringConvertible {
    /// The path the plugin was loaded from, as given.
    public let path: String
    /// The loaded object's path as the loader and discovery name it (the path after the loader's search).
    package let objectPath: String
    /// The loader's entry for the object: the same for every spelling of its path while it stays loaded.
    package let identity: UInt
    /// Whether the library stays mapped after `unload()` because the Swift runtime has registered it.
    @_spi(BeeHiveInternals)
    public let staysLoaded: Bool
    /// The file as it was when loaded, to tell whether it changed since.
    package let file: PluginFileStamp
    private let handle: Mutex<UInt?>

    private init(path: String, handle: UnsafeMutableRawPointer, staysLoaded: Bool, file: PluginFileStamp) {
        self.path = path
        self.handle = Mutex(UInt(bitPattern: handle))
        self.identity = UInt(bitPattern: handle)
        self.objectPath = Self.loaderName(of: handle) ?? path
        self.staysLoaded = staysLoaded
        self.file = file
    }

    /// Loads the library; its annotations are registered on the next `AnnotationRegistry.refresh()`.
    ///
    /// - Throws: `PluginError` with `.emptyPath`, `.notFound`, `.notARegularFile` (a directory, a FIFO...),
    ///   `.notELF`, `.incompatible` (another architecture, Swift runtime, Swift toolchain or BeeHive interface, a
    ///   needed library the loader cannot find, its own copy of a Swift module the process has, or a conformance
    ///   compiled against another version of a loaded protocol: `PluginError.incompatibility` says which), or
    ///   `.loaderFailed` with the loader's message (a missing dependency, a wrong architecture).
    public static func load(atPath path: String) throws(PluginError) -> Plugin {
        let file = try stamp(checking: path)
        // Checked before dlopen: once mapped, a plugin that cannot join this process has already run its
        // constructors.
        if path.contains("/"), case .success(let linkage) = ObjectLinkage.read(atPath: path),
           let incompatibility = PluginIncompatibility.of(linkage, atPath: path) {
            throw PluginError(path: path, incompatibility: incompatibility)
        }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let message = lastError()
            if let symbol = undefinedSymbol(in: message) {
                throw PluginError(path: path, operation: .load, kind: .missingSymbol, reason: missingSymbolReason(symbol))
            }
            throw PluginError(path: path, operation: .load, kind: .loaderFailed, reason: message)
        }
        // swiftrt.o, which swiftc links into every image, registers the image with the runtime through this
        // function, so finding it in the library's scope means the runtime may hold pointers into the library.
        let registersWithSwiftRuntime = dlsym(handle, "swift_addNewDSOImage") != nil
        if registersWithSwiftRuntime {
            guard let pinned = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE) else {
                let reason = lastError()
                dlclose(handle)
                throw PluginError(
                    path: path, operation: .load, kind: .loaderFailed, reason: "cannot keep the library loaded: \(reason)")
            }
            // The second handle only marked the library NODELETE; one handle is enough to release later.
            dlclose(pinned)
        }
        return Plugin(path: path, handle: handle, staysLoaded: registersWithSwiftRuntime, file: file)
    }

    /// The stamp of a plugin file, or why it cannot be loaded.
    private static func stamp(checking path: String) throws(PluginError) -> PluginFileStamp {
        guard !path.isEmpty else {
            throw PluginError(path: path, operation: .load, kind: .emptyPath, reason: "the path is empty")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            // No slash: the loader searches its library path, so there is no file to check here.
            if !path.contains("/") { return .searched }
            throw PluginError(path: path, operation: .load, kind: .notFound, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw PluginError(path: path, operation: .load, kind: .notARegularFile, reason: "it is \(kind)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var magic: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count = descriptor < 0 ? -1 : withUnsafeMutableBytes(of: &magic) { read(descriptor, $0.baseAddress, 4) }
        if descriptor >= 0 { close(descriptor) }
        guard count == 4, magic == (0x7F, 0x45, 0x4C, 0x46) else {
            throw PluginError(path: path, operation: .load, kind: .notELF, reason: "it is not an ELF shared library")
        }
        return PluginFileStamp(info)
    }

    /// The identity of the object `path` names if it is loaded now, else nil. Takes no reference on it.
    package static func loadedIdentity(atPath path: String) -> UInt? {
        guard !path.isEmpty, let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        return UInt(bitPattern: handle)
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
            throw PluginError(path: path, operation: .unload, kind: .loaderFailed, reason: Plugin.lastError())
        }
    }

    public var description: String { path }

    /// glibc's handle is the object's `struct link_map`, whose second field is the name the loader gave it.
    private static func loaderName(of handle: UnsafeMutableRawPointer) -> String? {
        guard let name = handle.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafePointer<CChar>?.self),
              name.pointee != 0
        else { return nil }
        return String(cString: name)
    }

    /// The symbol of glibc's "…: undefined symbol: NAME" message, if that is what the loader said.
    package static func undefinedSymbol(in message: String) -> String? {
        guard let marker = message.range(of: "undefined symbol: ") else { return nil }
        let symbol = message[marker.upperBound...].prefix { !$0.isWhitespace && $0 != "," }
        return symbol.isEmpty ? nil : String(symbol)
    }

    /// What a missing symbol means, in Swift's spelling when it is a Swift one: the plugin was built against
    /// another version of a library the host loads.
    package static func missingSymbolReason(_ symbol: String) -> String {
        let named = SwiftDemangling.demangle(symbol).map { "\($0) (\(symbol))" } ?? symbol
        let fix = SwiftDemangling.module(of: symbol)?.hasPrefix("BeeHive") == true
            ? "another version of BeeHive than the host's libBeeHive.so; rebuild it against the host's BeeHive"
            : "another version of a library the host loads; rebuild it against the libraries the host ships"
        return "it needs \(named), which no library loaded in this process defines: it was built against \(fix)"
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
    }
}

public struct PluginError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Operation: String, Sendable, Hashable { case load, unload }

    public enum Kind: String, Sendable, Hashable {
        /// An empty path (which `dlopen` would take as the main program).
        case emptyPath
        case notFound
        /// A directory, a FIFO, a device.
        case notARegularFile
        case notELF
        /// The dynamic loader refused: a missing dependency, a wrong architecture, an undefined symbol.
        case loaderFailed
        /// A symbol the plugin needs is defined by no loaded library: it was built against another version
        /// of a library the host loads (BeeHive, a shared-protocol library). The reason names the symbol.
        case missingSymbol
        /// The file cannot run in this process, read from it before loading: another architecture, a Swift
        /// runtime or toolchain other than the host's, another BeeHive interface, a missing library, a copied Swift
        /// module or another version of a loaded protocol (`incompatibility` says which). The reason names both
        /// sides and what to build instead.
        case incompatible
    }

    public let path: String
    public let operation: Operation
    public let kind: Kind
    /// The dynamic loader's or the system's message.
    public let reason: String
    /// For `.incompatible`, what differs between the plugin and this process.
    public let incompatibility: PluginIncompatibility?

    package init(path: String, operation: Operation, kind: Kind, reason: String) {
        self.path = path
        self.operation = operation
        self.kind = kind
        self.reason = reason
        incompatibility = nil
    }

    package init(path: String, incompatibility: PluginIncompatibility) {
        self.path = path
        operation = .load
        kind = .incompatible
        reason = incompatibility.description
        self.incompatibility = incompatibility
    }

    public var description: String {
        switch (operation, kind) {
        case (.load, .emptyPath): "cannot load a plugin from an empty path; pass the path of a shared library"
        case (.load, .notFound), (.load, .notARegularFile), (.load, .notELF):
            "cannot load plugin \(path): \(reason); pass the path of a shared library (.so) file"
        case (.load, .incompatible), (.load, .missingSymbol): "cannot load plugin \(path): \(reason)"
        case (.load, .loaderFailed):
            "cannot load plugin \(path): \(reason); check the path, and that the plugin links the BeeHive library and everything else it needs"
        case (.unload, _): "cannot unload plugin \(path): \(reason)"
        }
    }
}
