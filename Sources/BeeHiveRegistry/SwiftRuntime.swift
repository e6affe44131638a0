import CSectionShim

/// Which Swift runtime this process runs BeeHive on, and what may join it. A process holds one Swift runtime:
/// two (an executable built with `--static-swift-stdlib` beside `libswiftCore.so`) crash at the first `await`,
/// and a plugin with its own runtime never sees the host's types. Both are told apart from files before they
/// are loaded, so they are refused with a reason instead.
package enum SwiftRuntime: Sendable, Hashable {
    /// The shared runtime, `libswiftCore.so` at this path: BeeHive is the dynamic `BeeHive` product.
    case shared(library: String)
    /// A runtime linked into this image (`--static-swift-stdlib`): BeeHive is the `BeeHiveStatic` product.
    case embedded(image: String)

    /// The runtime this code runs on: the image that holds the standard library's metadata for `Int`.
    package static let current: SwiftRuntime = {
        let metadata = unsafeBitCast(Int.self as Any.Type, to: UnsafeRawPointer.self)
        let image = bh_image_containing(metadata).map { String(cString: $0) } ?? ""
        let name = image.split(separator: "/").last.map(String.init) ?? image
        return name.hasPrefix("libswiftCore.so") ? .shared(library: image) : .embedded(image: image)
    }()

    /// The executable, when it carries a Swift runtime of its own while BeeHive runs on the shared one: the
    /// dynamic core linked into a `--static-swift-stdlib` program. Nil when the process holds one runtime.
    package static let executableWithSecondRuntime: String? = {
        guard case .shared = current,
              case .success(let linkage) = ObjectLinkage.read(atPath: "/proc/self/exe"), linkage.carriesOwnSwiftRuntime
        else { return nil }
        return ExecutableOrigin.executable ?? "/proc/self/exe"
    }()

    /// Why the plugin at `path` cannot join this process, read from its file before it is loaded; nil when it
    /// can (or when the file cannot be read, which the loader then reports).
    package static func incompatibility(ofPluginAt path: String, linkage: ObjectLinkage) -> String? {
        let (machine, elfClass) = ObjectLinkage.processMachine
        if linkage.machine != machine || linkage.elfClass != elfClass {
            return "it is built for \(linkage.architecture) and this process runs on "
                + "\(ObjectLinkage.architectureName(machine: machine, elfClass: elfClass)); build the plugin for this machine"
        }
        if linkage.carriesOwnSwiftRuntime {
            return "it carries its own copy of the Swift runtime (linked with --static-swift-stdlib), so its types "
                + "would not conform to the host's protocols; build the plugin without --static-swift-stdlib"
        }
        if case .embedded = current, linkage.needsSharedSwiftRuntime {
            let library = linkage.needed.first { $0.hasPrefix("libswiftCore.so") } ?? linkage.needed.first { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") } ?? "libswiftCore.so"
            return "it needs the shared Swift runtime (\(library)), and this program carries its own (it was built "
                + "with --static-swift-stdlib on the BeeHiveStatic product): two Swift runtimes in one process crash; "
                + "build the host without --static-swift-stdlib on the BeeHive product to load Swift plugins, or make "
                + "the plugin a C library (cc -shared) that needs no Swift runtime"
        }
        return nil
    }
}
