import CSectionShim
#if canImport(Glibc)
import Glibc
#endif

/// How an ELF file links, read from the file without loading it: what a plugin must agree with before
/// `dlopen` maps it and runs its constructors.
package struct ObjectLinkage: Sendable, Hashable {
    /// `e_machine`.
    package let machine: UInt32
    /// `EI_CLASS`: 1 for 32-bit, 2 for 64-bit.
    package let elfClass: UInt8
    /// The libraries the file needs (DT_NEEDED), in order.
    package let needed: [String]
    /// Where it asks the loader to look for them: DT_RPATH and DT_RUNPATH, colon-separated, as written.
    package let rpath: String?
    package let runpath: String?
    /// Whether the file carries Swift metadata; nil when it has no section table to tell (--strip-sections).
    package let carriesSwiftMetadata: Bool?
    /// The BeeHive interface its note says it was built against; nil for a file without one (not annotated,
    /// or annotated before notes carried it).
    package let interfaceFingerprint: UInt64?
    /// The Swift modules whose type or protocol descriptors the file exports, each with one such symbol: the
    /// modules it carries a copy of.
    package let swiftModules: [String: String]
    /// The Swift protocol descriptors the file imports from other libraries (`$s6Shared8GreetingMp`).
    package let importedProtocols: [String]
    /// The protocol witness tables the file defines (`$s…WP`), each with its size in bytes: one word for the
    /// conformance, then one for each requirement of the protocol as it was compiled against.
    package let witnessTables: [String: UInt64]
    /// Whether the file was built with AddressSanitizer, whose redzones pad the sizes of its globals, so that
    /// `witnessTables` no longer tell the requirements.
    package let isAddressSanitized: Bool
    /// The Swift protocol descriptors the file defines and exports, each with its number of requirements
    /// (protocols of modules built for library evolution are left out).
    package let exportedProtocols: [String: Int]
    /// The Swift toolchain that built the file: the compiler line its `.comment` keeps from the toolchain's own
    /// objects that every Swift binary links ("clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git
    /// 11673e6…)"); nil for a file without Swift code or stripped of `.comment`.
    package let swiftToolchain: String?

    package init(
        machine: UInt32, elfClass: UInt8, needed: [String], rpath: String? = nil, runpath: String? = nil,
        carriesSwiftMetadata: Bool?, interfaceFingerprint: UInt64? = nil, swiftModules: [String: String] = [:],
        importedProtocols: [String] = [], witnessTables: [String: UInt64] = [:], isAddressSanitized: Bool = false,
        exportedProtocols: [String: Int] = [:], swiftToolchain: String? = nil
    ) {
        self.machine = machine
        self.elfClass = elfClass
        self.needed = needed
        self.rpath = rpath
        self.runpath = runpath
        self.carriesSwiftMetadata = carriesSwiftMetadata
        self.interfaceFingerprint = interfaceFingerprint
        self.swiftModules = swiftModules
        self.importedProtocols = importedProtocols
        self.witnessTables = witnessTables
        self.isAddressSanitized = isAddressSanitized
        self.exportedProtocols = exportedProtocols
        self.swiftToolchain = swiftToolchain
    }

    /// The file's linkage, or why it cannot be read.
    package static func read(atPath path: String) -> Result<ObjectLinkage, LinkageReadError> {
        var linkage = bh_linkage()
        defer { bh_linkage_free(&linkage) }
        return make(bh_read_linkage(path, &linkage), linkage, path: path)
    }

    /// The linkage of the file open as `descriptor` (`size` bytes long), named `path` in errors.
    package static func read(descriptor: Int32, size: Int, path: String) -> Result<ObjectLinkage, LinkageReadError> {
        var linkage = bh_linkage()
        defer { bh_linkage_free(&linkage) }
        return make(bh_read_open_linkage(descriptor, max(0, size), &linkage), linkage, path: path)
    }

    private static func make(_ status: Int32, _ linkage: bh_linkage, path: String) -> Result<ObjectLinkage, LinkageReadError> {
        guard status == 0 else {
            let detail = linkage.detail.map { String(cString: $0) } ?? "unreadable"
            return .failure(LinkageReadError(path: path, reason: linkage.sys_errno == 0 ? detail : "\(detail): \(String(cString: strerror(linkage.sys_errno)))"))
        }
        let modules = strings(linkage.swift_modules, size: linkage.swift_modules_size)
        var swiftModules: [String: String] = [:]
        for pair in stride(from: 0, to: modules.count - 1, by: 2) { swiftModules[modules[pair]] = modules[pair + 1] }
        var witnessTables: [String: UInt64] = [:]
        for (index, table) in strings(linkage.witness_tables, size: linkage.witness_tables_size).enumerated()
        where index < linkage.witness_table_count {
            witnessTables[table] = linkage.witness_table_sizes[index]
        }
        var exportedProtocols: [String: Int] = [:]
        let words = Int(BH_PROTOCOL_DESCRIPTOR_WORDS)
        for (index, symbol) in strings(linkage.exported_protocols, size: linkage.exported_protocols_size).enumerated()
        where index < linkage.exported_protocol_count {
            let descriptor = UnsafeRawPointer(linkage.exported_protocol_words + index * words)
            exportedProtocols[symbol] = ProtocolRequirements.requirementCount(ofDescriptorAt: descriptor)
        }
        return .success(ObjectLinkage(
            machine: UInt32(linkage.machine), elfClass: linkage.elf_class,
            needed: strings(linkage.needed, size: linkage.needed_size),
            rpath: linkage.rpath.map { String(cString: $0) }, runpath: linkage.runpath.map { String(cString: $0) },
            carriesSwiftMetadata: linkage.swift_metadata < 0 ? nil : linkage.swift_metadata == 1,
            interfaceFingerprint: linkage.has_interface != 0 ? linkage.interface_fingerprint : nil,
            swiftModules: swiftModules,
            importedProtocols: strings(linkage.imported_protocols, size: linkage.imported_protocols_size),
            witnessTables: witnessTables, isAddressSanitized: linkage.address_sanitized != 0,
            exportedProtocols: exportedProtocols,
            swiftToolchain: linkage.has_swift_toolchain != 0 ? toolchain(linkage.swift_toolchain) : nil))
    }

    /// The NUL-terminated text of the reader's fixed buffer.
    private static func toolchain<Buffer>(_ buffer: Buffer) -> String {
        withUnsafeBytes(of: buffer) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The NUL-terminated strings of a buffer of `size` bytes. Stepped by the bytes, not by the decoded text,
    /// which repairs bytes that are not UTF-8.
    private static func strings(_ buffer: UnsafeMutablePointer<CChar>?, size: Int) -> [String] {
        guard let buffer else { return [] }
        var strings: [String] = []
        var at = 0
        while at < size {
            let length = strnlen(buffer + at, size - at)
            strings.append(String(decoding: UnsafeRawBufferPointer(start: buffer + at, count: length), as: UTF8.self))
            at += length + 1
        }
        return strings
    }

    /// Whether the file links BeeHive's dynamic library, and so calls its Swift interface.
    package var linksBeeHive: Bool {
        needed.contains { $0 == "libBeeHive.so" || $0.hasPrefix("libBeeHive.so.") }
    }

    /// Whether the file links the shared Swift runtime (`libswiftCore.so` and the libraries built on it).
    package var needsSharedSwiftRuntime: Bool {
        needed.contains { name in
            ["libswiftCore.so", "libswift_Concurrency.so", "libFoundation", "libswiftDispatch.so"].contains { name.hasPrefix($0) }
        }
    }

    /// Whether the file holds Swift code but no link to the shared runtime: it carries a runtime of its own
    /// (built with `--static-swift-stdlib`).
    package var carriesOwnSwiftRuntime: Bool { carriesSwiftMetadata == true && !needsSharedSwiftRuntime }

    /// The architecture's usual name, for messages.
    package var architecture: String { Self.architectureName(machine: machine, elfClass: elfClass) }

    /// The machine this code was compiled for, as `e_machine` and `EI_CLASS` spell it.
    package static let processMachine: (machine: UInt32, elfClass: UInt8) = {
        #if arch(x86_64)
        (62, 2)
        #elseif arch(arm64)
        (183, 2)
        #elseif arch(riscv64)
        (243, 2)
        #elseif arch(powerpc64le) || arch(powerpc64)
        (21, 2)
        #elseif arch(s390x)
        (22, 2)
        #elseif arch(i386)
        (3, 1)
        #elseif arch(arm)
        (40, 1)
        #else
        (0, 0)
        #endif
    }()

    package static func architectureName(machine: UInt32, elfClass: UInt8) -> String {
        switch (machine, elfClass) {
        case (62, 2): "x86_64"
        case (62, 1): "x32"
        case (183, _): "aarch64"
        case (243, 2): "riscv64"
        case (243, 1): "riscv32"
        case (21, _): "ppc64"
        case (22, _): "s390x"
        case (3, _): "i386"
        case (40, _): "arm"
        default: "machine \(machine) (\(elfClass == 1 ? "32" : "64")-bit)"
        }
    }
}

/// Why a file's linkage could not be read.
package struct LinkageReadError: Error, Sendable, Hashable {
    package let path: String
    package let reason: String
}
