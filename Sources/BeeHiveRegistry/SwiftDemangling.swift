#if canImport(Glibc)
import Glibc
#endif

/// Swift symbol names as people read them, for messages about symbols the loader could not find.
package enum SwiftDemangling {
    /// The runtime's exported demangler (swift/Demangling/Demangle.h); it returns a malloc'ed string.
    @_silgen_name("swift_demangle")
    private static func swiftDemangle(
        _ mangled: UnsafePointer<CChar>?, _ length: Int, _ output: UnsafeMutablePointer<CChar>?,
        _ outputSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// `symbol` demangled, or nil when it is not a Swift symbol.
    package static func demangle(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return nil }
        return symbol.withCString { name in
            guard let demangled = swiftDemangle(name, symbol.utf8.count, nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }

    /// The module a mangled Swift symbol starts in (`$s7BeeHive4HiveC…` is in `BeeHive`), or nil.
    package static func module(of symbol: String) -> String? {
        guard symbol.hasPrefix("$s") else { return nil }
        let rest = symbol.utf8.dropFirst(2)
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let length = Int(String(decoding: digits, as: UTF8.self)), length > 0 else { return nil }
        let name = rest.dropFirst(digits.count).prefix(length)
        return name.count == length ? String(decoding: name, as: UTF8.self) : nil
    }
}
