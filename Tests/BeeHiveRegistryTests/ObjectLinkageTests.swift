@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// How a file links, read before `dlopen`, and the plugins refused because of it.
@Suite struct ObjectLinkageTests {
    static let plainLibrary = "#include <beehive.h>\nBeeHiveMod(Test.LinkageModule)\n"

    @Test func theTestProcessRunsOnTheSharedRuntimeAndHoldsOne() throws {
        guard case .shared(let library) = SwiftRuntime.current else {
            Issue.record("the test bundle links libswiftCore.so, found \(SwiftRuntime.current)")
            return
        }
        #expect(library.hasSuffix("libswiftCore.so"))
        #expect(SwiftRuntime.executableWithSecondRuntime == nil)
        let linkage = try ObjectLinkage.read(atPath: "/proc/self/exe").get()
        #expect(linkage.machine == ObjectLinkage.processMachine.machine)
        #expect(linkage.elfClass == ObjectLinkage.processMachine.elfClass)
        #expect(linkage.needed.contains("libswiftCore.so"))
        #expect(linkage.carriesSwiftMetadata == true)
        #expect(linkage.needsSharedSwiftRuntime && !linkage.carriesOwnSwiftRuntime)
    }

    @Test func aCLibraryNeedsNoSwiftRuntime() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "libplain.so")
        try TestLibrary.write(try TestLibrary.build(Self.plainLibrary), to: file)
        let linkage = try ObjectLinkage.read(atPath: file.path).get()
        #expect(linkage.needed.isEmpty && linkage.swiftModules.isEmpty)
        #expect(linkage.carriesSwiftMetadata == false)
        #expect(PluginIncompatibility.of(linkage) == nil)
    }

    /// The modules a library carries, from the Swift type and protocol descriptors it exports: each once, with
    /// one of its symbols; names that only look like descriptors are not modules.
    @Test func theSwiftModulesALibraryExportsAreReadFromItsDynamicSymbols() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "libdescriptors.so")
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Fuzz/Seeds/swift-descriptors.c")
        let source = try String(contentsOf: seed, encoding: .utf8)
        try TestLibrary.write(try TestLibrary.build(source), to: file)
        let linkage = try ObjectLinkage.read(atPath: file.path).get()
        #expect(linkage.swiftModules == [
            "Hummingbird": "$s11Hummingbird6RouterCMn", "ShopInterfaces": "$s14ShopInterfaces7CatalogMp",
        ])
        // The protocol its conformance was compiled against, imported, and that conformance's witness table, local.
        #expect(linkage.importedProtocols == ["$s6Shared8GreetingMp"])
        #expect(linkage.witnessTables == ["$s6Plugin5HelloC6Shared8GreetingAAWP": 24])
        // Nothing of this process defines these modules or that protocol: they are the library's own.
        #expect(PluginIncompatibility.of(linkage, atPath: file.path) == nil)
    }

    /// A conformance whose witness table holds another number of requirements than the protocol's definition is
    /// a mismatch; the same file built with AddressSanitizer, whose redzones pad every global's size, is not
    /// judged by its sizes.
    @Test func aWitnessTableOfAnotherSizeIsAMismatchUnlessAddressSanitizerPaddedIt() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let conformance = """
            extern const char imported_protocol[] __asm__("$s6Shared8GreetingMp");
            __attribute__((used)) static const void *const witness_table[3] __asm__("$s6Plugin5HelloC6Shared8GreetingAAWP") = {
                imported_protocol, 0, 0};
            """
        func linkage(_ name: String, _ source: String) throws -> ObjectLinkage {
            let file = directory.appending(path: "lib\(name).so")
            try TestLibrary.write(try TestLibrary.build(source), to: file)
            return try ObjectLinkage.read(atPath: file.path).get()
        }
        let plain = try linkage("plain", conformance)
        let sanitized = try linkage("sanitized", conformance + "extern void __asan_init(void);\nvoid start(void) { __asan_init(); }\n")
        #expect(!plain.isAddressSanitized && sanitized.isAddressSanitized)
        func defined(_ requirements: Int) -> (String) -> (requirements: Int, library: () -> String)? {
            { symbol in symbol == "$s6Shared8GreetingMp" ? (requirements, { "libShared.so" }) : nil }
        }
        let mismatch = ProtocolRequirements.mismatch(in: plain, definition: defined(3))
        #expect(mismatch?.protocolName == "Shared.Greeting" && mismatch?.plugin == 2 && mismatch?.host == 3)
        #expect(mismatch?.library == "libShared.so")
        #expect(ProtocolRequirements.mismatch(in: plain, definition: defined(2)) == nil)
        #expect(ProtocolRequirements.mismatch(in: sanitized, definition: defined(3)) == nil)
    }

    /// How the protocol check reads the names the runtime's demangler gives, and the descriptors it reads.
    @Test func theProtocolCheckReadsDemangledNamesAndProtocolDescriptors() {
        #expect(ProtocolRequirements.protocolName(ofDescriptor: "protocol descriptor for Shared.Greeting") == "Shared.Greeting")
        #expect(ProtocolRequirements.protocolName(ofDescriptor: "nominal type descriptor for Shared.Greeting") == nil)
        #expect(ProtocolRequirements.protocolName(
            ofWitnessTable: "protocol witness table for Plugin.Box<A> : Shared.Greeting in Plugin") == "Shared.Greeting")
        #expect(ProtocolRequirements.protocolName(
            ofWitnessTable: "protocol witness table for Plugin.Outer.Inner : Shared.Outer.Nested in Plugin") == "Shared.Outer.Nested")
        #expect(ProtocolRequirements.protocolName(ofWitnessTable: "protocol witness table for Plugin.Hello") == nil)
        #expect(ProtocolRequirements.protocolName(ofWitnessTable: "type metadata for Plugin.Hello") == nil)
        // Flags (kind 3, a protocol; bit 1 of the high half: resilient), parent, name, signature count, count.
        let plain: [UInt32] = [0x0001_0043, 0, 0, 1, 4, 0]
        let resilient: [UInt32] = [0x0003_0043, 0, 0, 1, 4, 0]
        let structDescriptor: [UInt32] = [0x0000_0051, 0, 0, 1, 4, 0]
        #expect(plain.withUnsafeBytes { ProtocolRequirements.requirementCount(ofDescriptorAt: $0.baseAddress!) } == 4)
        #expect(resilient.withUnsafeBytes { ProtocolRequirements.requirementCount(ofDescriptorAt: $0.baseAddress!) } == nil)
        #expect(structDescriptor.withUnsafeBytes { ProtocolRequirements.requirementCount(ofDescriptorAt: $0.baseAddress!) } == nil)
    }

    @Test func aPluginForAnotherArchitectureIsRefusedBeforeTheLoaderMapsIt() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = try ELFImage(try TestLibrary.build(Self.plainLibrary))
        let foreign: UInt64 = ObjectLinkage.processMachine.machine == 183 ? 62 : 183
        image.write(foreign, at: 0x12, width: 2)
        let file = directory.appending(path: "libforeign.so")
        try TestLibrary.write(image.bytes, to: file)
        #expect {
            try Plugin.load(atPath: file.path)
        } throws: { error in
            guard let error = error as? PluginError, error.kind == .incompatible else { return false }
            let host = ObjectLinkage.architectureName(
                machine: ObjectLinkage.processMachine.machine, elfClass: ObjectLinkage.processMachine.elfClass)
            let other = ObjectLinkage.architectureName(machine: UInt32(foreign), elfClass: 2)
            return error.description.contains("built for \(other) and this process runs on \(host)")
        }
        #expect(Plugin.loadedIdentity(atPath: file.path) == nil, "the loader never mapped it")
    }

    @Test func aLibraryWithItsOwnSwiftRuntimeIsRefusedEverywhere() {
        let linkage = ObjectLinkage(
            machine: ObjectLinkage.processMachine.machine, elfClass: ObjectLinkage.processMachine.elfClass,
            needed: ["libc.so.6"], carriesSwiftMetadata: true)
        #expect(linkage.carriesOwnSwiftRuntime)
        let incompatibility = PluginIncompatibility.of(linkage)
        #expect(incompatibility == .ownSwiftRuntime)
        #expect(incompatibility?.description.contains("carries its own copy of the Swift runtime") == true)
        #expect(incompatibility?.description.contains("build the plugin without --static-swift-stdlib") == true)
    }

    @Test func aSwiftPluginJoinsAHostOnTheSharedRuntime() {
        let linkage = ObjectLinkage(
            machine: ObjectLinkage.processMachine.machine, elfClass: ObjectLinkage.processMachine.elfClass,
            needed: ["libBeeHive.so", "libswiftCore.so"], carriesSwiftMetadata: true)
        #expect(PluginIncompatibility.of(linkage) == nil)
    }

    @Test func unreadableFilesAreFailuresNotCrashes() throws {
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try TestLibrary.build(Self.plainLibrary)
        let fifo = directory.appending(path: "fifo.so")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let truncated = directory.appending(path: "truncated.so")
        try TestLibrary.write(Array(bytes.prefix(100)), to: truncated)
        let text = directory.appending(path: "text.so")
        try TestLibrary.write(Array("not a library\n".utf8), to: text)
        for path in [directory.path, fifo.path, text.path, directory.appending(path: "missing.so").path] {
            guard case .failure(let error) = ObjectLinkage.read(atPath: path) else {
                Issue.record("\(path) read as a library")
                continue
            }
            #expect(error.path == path && !error.reason.isEmpty)
        }
        // Cut inside its program headers, the file still answers without a crash: with what it has, or an error.
        if case .success(let linkage) = ObjectLinkage.read(atPath: truncated.path) {
            #expect(linkage.needed.isEmpty)
        }
    }

    @Test func originIsTheExecutablesFolder() throws {
        let folder = try #require(ExecutableOrigin.folder)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(URL(filePath: executable).deletingLastPathComponent().path == folder)
        #expect(ExecutableOrigin.resolve("$ORIGIN/plugins/libA.so") == folder + "/plugins/libA.so")
        #expect(ExecutableOrigin.resolve("${ORIGIN}/libA.so") == folder + "/libA.so")
        #expect(ExecutableOrigin.resolve("$ORIGIN") == folder)
        #expect(ExecutableOrigin.resolve("$ORIGINAL/libA.so") == "$ORIGINAL/libA.so")
        #expect(ExecutableOrigin.resolve("plugins/$ORIGIN/libA.so") == "plugins/$ORIGIN/libA.so")
        #expect(ExecutableOrigin.resolve("/opt/app/libA.so") == "/opt/app/libA.so")
    }
}
