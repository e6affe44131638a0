import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// Why a plugin file cannot join this process, read from the file before it is loaded: once mapped, a plugin
/// has run its constructors, and one built for another host crashes it later, far from the cause.
///
/// Each case names what differs, with the plugin's value and the host's.
public enum PluginIncompatibility: Sendable, Hashable, CustomStringConvertible {
    /// Built for another machine (`plugin`) than this process runs on (`host`), named as architectures
    /// usually are.
    case otherArchitecture(plugin: String, host: String)
    /// It carries its own Swift runtime (linked with `--static-swift-stdlib`): its types would never conform
    /// to the host's protocols.
    case ownSwiftRuntime
    /// It needs the shared Swift runtime (`library`) and this program carries its own: two Swift runtimes in
    /// one process crash.
    case sharedSwiftRuntime(library: String)
    /// It was built with another Swift toolchain (`plugin`, the compiler line its `.comment` keeps) than the
    /// Swift runtime this process runs on (`host`): Swift on Linux keeps no binary compatibility between
    /// toolchains, so its code may not match the runtime's.
    case otherSwiftToolchain(plugin: String, host: String)
    /// It links libBeeHive.so and was built against another version of BeeHive's interface than the host's
    /// (the two `BEEHIVE_INTERFACE_FINGERPRINT` values): its calls and the layout of the values it shares
    /// with the host would not match.
    case otherBeeHiveInterface(plugin: UInt64, host: UInt64)
    /// It needs `library`, which none of the places the loader looks holds (the `searched` folders, the
    /// loader's cache /etc/ld.so.cache, the libraries already loaded): `dlopen` would fail on it.
    case missingLibrary(String, searched: [String])
    /// It carries its own copy of Swift modules (`modules`) that this process already has from the library at
    /// `loadedFrom`: a plugin linked against a package directly instead of through the library the host ships
    /// it in. Two copies of one module's types in one process break casts and crash.
    case duplicateSwiftModules([String], loadedFrom: String)
    /// One of its types conforms to `protocol` as it was compiled against, with `plugin` requirements, and the
    /// protocol loaded from `definedIn` has `host`: a plugin built against another version of a library of
    /// protocols it shares with the host. Calls through the conformance would crash or reach the wrong method.
    case otherProtocolRequirements(String, plugin: Int, host: Int, definedIn: String)

    public var description: String {
        switch self {
        case .otherArchitecture(let plugin, let host):
            "it is built for \(plugin) and this process runs on \(host); build the plugin for this machine"
        case .ownSwiftRuntime:
            "it carries its own copy of the Swift runtime (linked with --static-swift-stdlib), so its types "
                + "would not conform to the host's protocols; build the plugin without --static-swift-stdlib"
        case .sharedSwiftRuntime(let library):
            "it needs the shared Swift runtime (\(library)), and this program carries its own (it was built "
                + "with --static-swift-stdlib on the BeeHiveStatic product): two Swift runtimes in one process crash; "
                + "build the host without --static-swift-stdlib on the BeeHive product to load Swift plugins, or make "
                + "the plugin a C library (cc -shared) that needs no Swift runtime"
        case .otherSwiftToolchain(let plugin, let host):
            "it was built with another Swift toolchain (\(plugin)) than the Swift runtime this process runs on "
                + "(\(host)): Swift keeps no binary compatibility between toolchains on Linux; build the plugin with the "
                + "toolchain the host is built with"
        case .otherBeeHiveInterface(let plugin, let host):
            "it was built against another version of BeeHive (interface \(Self.hex(plugin))) than this host's "
                + "libBeeHive.so (interface \(Self.hex(host))); rebuild the plugin against the BeeHive the host ships"
        case .missingLibrary(let library, let searched):
            "it needs \(library), which is not in /etc/ld.so.cache, among the loaded libraries or in any folder "
                + "searched (\(searched.joined(separator: ", "))); install it, put it beside the plugin with "
                + "$ORIGIN in the plugin's RUNPATH, or add its folder to LD_LIBRARY_PATH"
        case .duplicateSwiftModules(let modules, let library):
            "it carries its own copy of the Swift module\(modules.count == 1 ? "" : "s") \(modules.joined(separator: ", ")), "
                + "which this process already has from \(library): two copies of one module's types in one process "
                + "break casts and crash; build the plugin against the library the host ships "
                + "\(modules.count == 1 ? "it" : "them") in (depend on that library's product only, not on the package it holds)"
        case .otherProtocolRequirements(let name, let plugin, let host, let library):
            "it was built against another version of the protocol \(name): its conformance has \(plugin) "
                + "requirement\(plugin == 1 ? "" : "s") and the \(name) loaded from \(library) has \(host); "
                + "rebuild the plugin against the version of that library the host ships"
        }
    }

    /// The fingerprint of the BeeHive interface this library was built from.
    package static let hostInterface = UInt64(truncatingIfNeeded: BEEHIVE_INTERFACE_FINGERPRINT)

    /// Why the plugin file at `path`, which links as `linkage` says, cannot be loaded into this process now:
    /// `of(_:)`, then a Swift module the process has from another library, then a protocol loaded with other
    /// requirements than the plugin was compiled against, then a needed library that cannot be found. Not kept
    /// in a folder's index: they depend on what is loaded and installed when it loads.
    package static func of(_ linkage: ObjectLinkage, atPath path: String) -> PluginIncompatibility? {
        if let incompatibility = of(linkage) { return incompatibility }
        if let duplicate = duplicateModules(of: linkage, atPath: path) { return duplicate }
        if let mismatch = ProtocolRequirements.mismatch(in: linkage) {
            return .otherProtocolRequirements(
                mismatch.protocolName, plugin: mismatch.plugin, host: mismatch.host, definedIn: mismatch.library)
        }
        return LibrarySearch.missingLibrary(of: linkage, atPath: path).map { .missingLibrary($0.name, searched: $0.searched) }
    }

    /// The modules the plugin carries that a library of the process (the executable's, not another plugin's:
    /// plugins load with RTLD_LOCAL) already exports, all from the first such library.
    private static func duplicateModules(of linkage: ObjectLinkage, atPath path: String) -> PluginIncompatibility? {
        var plugin = stat()
        let pluginStat = stat(path, &plugin) == 0 ? plugin : nil
        var found: (library: String, modules: [String])?
        for (module, symbol) in linkage.swiftModules.sorted(by: { $0.key < $1.key }) {
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol),
                  let image = bh_image_containing(address).map({ String(cString: $0) }),
                  !isFile(image, pluginStat)
            else { continue }
            if found == nil { found = (image, []) }
            if found?.library == image { found?.modules.append(module) }
        }
        return found.map { .duplicateSwiftModules($0.modules, loadedFrom: $0.library) }
    }

    /// Whether `image` is the plugin's own file (`plugin`, its status), already loaded from its path.
    private static func isFile(_ image: String, _ plugin: stat?) -> Bool {
        var status = stat()
        guard let plugin, stat(image, &status) == 0 else { return false }
        return status.st_dev == plugin.st_dev && status.st_ino == plugin.st_ino
    }

    /// Why a plugin that links as `linkage` says cannot join this process; nil when it can.
    package static func of(_ linkage: ObjectLinkage) -> PluginIncompatibility? {
        let (machine, elfClass) = ObjectLinkage.processMachine
        if linkage.machine != machine || linkage.elfClass != elfClass {
            return .otherArchitecture(
                plugin: linkage.architecture, host: ObjectLinkage.architectureName(machine: machine, elfClass: elfClass))
        }
        if linkage.carriesOwnSwiftRuntime { return .ownSwiftRuntime }
        if case .embedded = SwiftRuntime.current, linkage.needsSharedSwiftRuntime {
            let library = linkage.needed.first { $0.hasPrefix("libswiftCore.so") }
                ?? linkage.needed.first { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") } ?? "libswiftCore.so"
            return .sharedSwiftRuntime(library: library)
        }
        if linkage.needsSharedSwiftRuntime, let plugin = linkage.swiftToolchain, let host = SwiftRuntime.toolchain, plugin != host {
            return .otherSwiftToolchain(plugin: plugin, host: host)
        }
        // A plugin that does not link libBeeHive.so calls none of its code (a C plugin carries records only),
        // and one built before notes carried the interface is taken as it was before.
        if linkage.linksBeeHive, let interface = linkage.interfaceFingerprint, interface != hostInterface {
            return .otherBeeHiveInterface(plugin: interface, host: hostInterface)
        }
        return nil
    }

    /// A fingerprint as messages write it: 0x and 16 hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
