@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// A library loaded into this test process is read from memory through its note's offsets: with every linker,
/// after --gc-sections, and with no section table at all (`llvm-objcopy --strip-sections`), which leaves
/// nothing a file reader could use.
@Suite(.serialized) struct SelfLocatingNoteTests {
    static let source = """
        #include <beehive.h>
        BeeHiveMod(Located.Module)
        BeeHiveService(Located.Protocol, Located.Service)
        BeeHiveRoute("/located/:id", Located.Handler)

        """
    static let texts = [
        "beehive:1|module|Located.Module", "beehive:1|route|/located/:id|Located.Handler",
        "beehive:1|service|Located.Protocol|Located.Service",
    ]

    static let builds: [(compiler: String, linker: String)] = [("clang", "lld"), ("gcc", "bfd"), ("gcc", "gold")]

    @Test(.timeLimit(.minutes(10)), arguments: builds)
    func strippedLibraryIsReadFromMemory(compiler: String, linker: String) throws {
        let bytes = try TestLibrary.build(Self.source, compiler: compiler, flags: ["-fuse-ld=\(linker)", "-Wl,--gc-sections"])
        let directory = try TestLibrary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appending(path: "libLocated-\(compiler)-\(linker).so")
        try TestLibrary.write(bytes, to: library)
        let strip = Process()
        strip.executableURL = URL(filePath: "/usr/bin/env")
        strip.arguments = ["llvm-objcopy", "--strip-sections", library.path]
        try strip.run()
        strip.waitUntilExit()
        try #require(strip.terminationStatus == 0)
        #expect(SectionReader.readFile(atPath: library.path).diagnostics.map(\.kind) == [.sectionHeadersMissing])

        let source = LoadedObjectsSource()
        _ = source.poll()
        let handle = try #require(dlopen(library.path, RTLD_NOW | RTLD_LOCAL))
        let loaded = source.poll().compactMap { event -> ObjectAnnotations? in
            if case .loaded(let annotations) = event, annotations.object.path == library.path { return annotations }
            return nil
        }
        #expect(loaded.count == 1)
        #expect(loaded.first?.records.map(\.text).sorted() == Self.texts)
        #expect(loaded.first?.diagnostics.isEmpty == true, "\(loaded.first?.diagnostics ?? [])")
        #expect(loaded.first?.object.buildID != nil)
        dlclose(handle)
        // Other tests load and unload libraries of their own meanwhile.
        let unloaded = source.poll().compactMap { event -> LoadedObject? in
            if case .unloaded(let object) = event, object.path == library.path { return object }
            return nil
        }
        #expect(unloaded.count == 1)
    }
}
