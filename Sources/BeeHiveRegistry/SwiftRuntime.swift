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

    /// The Swift toolchain that built the runtime this code runs on, as its image's `.comment` names it (see
    /// `ObjectLinkage.swiftToolchain`); nil when the image does not say.
    package static let toolchain: String? = {
        let image = switch current {
        case .shared(let library): library
        case .embedded(let image): image.isEmpty ? "/proc/self/exe" : image
        }
        var line = [CChar](repeating: 0, count: 256)
        guard bh_read_swift_toolchain(image, &line, line.count) != 0 else { return nil }
        return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The executable, when it carries a Swift runtime of its own while BeeHive runs on the shared one: the
    /// dynamic core linked into a `--static-swift-stdlib` program. Nil when the process holds one runtime.
    package static let executableWithSecondRuntime: String? = {
        guard case .shared = current,
              case .success(let linkage) = ObjectLinkage.read(atPath: "/proc/self/exe"), linkage.carriesOwnSwiftRuntime
        else { return nil }
        return ExecutableOrigin.executable ?? "/proc/self/exe"
    }()
}
