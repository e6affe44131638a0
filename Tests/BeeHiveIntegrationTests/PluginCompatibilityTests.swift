@_spi(BeeHiveInternals) import BeeHiveRegistry
import BeeHive
import Foundation
import Logging
import Testing

/// Plugins built against another BeeHive are refused before `dlopen`, by `Plugin.load`, by a folder at start and
/// by `beehive index`; plugins built against this one, or before notes named the interface, still load.
///
/// The plugins are C (Tests/Fixtures/CPlugins/compat.c) built against copies of `beehive.h`: one whose
/// interface fingerprint differs, as a BeeHive with another public interface would write, and one that writes
/// the previous note version, without a fingerprint. Linked with libBeeHive.so, each is what the check looks
/// at in a Swift plugin; without it, a C plugin calls no BeeHive code and is not checked. A constructor creates
/// a marker file, so a refused plugin is seen never to have run. Loads that succeed run in a child process (this
/// test binary again): they bring libBeeHive.so, a second copy of the core, into the process.
@Suite(.timeLimit(.minutes(10))) struct PluginCompatibilityTests {
    static let foreignInterface: UInt64 = 0x0123_4567_89ab_cdef
    static let childVariable = "BEEHIVE_COMPAT_LOAD"
    static let sharedProtocolsVariable = "BEEHIVE_COMPAT_SHARED"

    /// The folder of the test binary, which holds libBeeHive.so.
    static var coreFolder: URL {
        get throws {
            let folder = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: folder.appending(path: "libBeeHive.so").path) else {
                throw FixtureBuilder.Failure(description: "no libBeeHive.so next to the test binary; run swift build first")
            }
            return folder
        }
    }

    enum Header { case current, foreignInterface, previousNote }

    /// compat.c built into `folder` as `name` against a copy of the headers changed as `header` says; its
    /// constructor creates `marker`, when given.
    static func plugin(
        _ name: String, _ header: Header, linksBeeHive: Bool, marker: URL? = nil, copying descriptor: String? = nil,
        in folder: URL
    ) throws -> URL {
        let include = folder.appending(path: "include-\(name)")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        let headers = FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include")
        for file in try FileManager.default.contentsOfDirectory(atPath: headers.path) {
            var text = try String(contentsOf: headers.appending(path: file), encoding: .utf8)
            if file == "beehive.h" {
                switch header {
                case .current: break
                case .foreignInterface:
                    text = try replacing(#"#define BEEHIVE_INTERFACE_FINGERPRINT 0x[0-9a-f]+"#,
                        with: "#define BEEHIVE_INTERFACE_FINGERPRINT 0x\(String(foreignInterface, radix: 16))", in: text)
                case .previousNote:
                    text = try replacing(#"#define BEEHIVE_NOTE_VERSION 4"#, with: "#define BEEHIVE_NOTE_VERSION 3", in: text)
                    text = try replacing(#"#define BEEHIVE_NOTE_DESCRIPTOR_SIZE \(BEEHIVE_NOTE_INTERFACE_OFFSET \+ 8\)"#,
                        with: "#define BEEHIVE_NOTE_DESCRIPTOR_SIZE BEEHIVE_NOTE_INTERFACE_OFFSET", in: text)
                    text = try replacing(#"\n *"\.quad " BEEHIVE_STR_\(BEEHIVE_INTERFACE_FINGERPRINT\) "\\n" \\"#, with: "", in: text)
                }
            }
            try text.write(to: include.appending(path: file), atomically: true, encoding: .utf8)
        }
        let library = folder.appending(path: "lib\(name).so")
        var arguments = [
            "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I", include.path,
            FixtureBuilder.fixturesRoot.appending(path: "CPlugins/compat.c").path, "-o", library.path,
        ]
        if let marker { arguments.append("-DCOMPAT_MARKER=\"\(marker.path)\"") }
        if let descriptor { arguments.append("-DCOMPAT_COPIED_DESCRIPTOR=\"\(descriptor)\"") }
        if linksBeeHive {
            let core = try coreFolder.path
            arguments += ["-L", core, "-Wl,--no-as-needed", "-lBeeHive", "-Wl,-rpath,\(core)"]
        }
        let run = try FixtureBuilder.run(try SystemTools.require("cc"), arguments)
        guard run.status == 0 else { throw FixtureBuilder.Failure(description: "cc failed:\n\(run.output)") }
        chmod(library.path, 0o644)
        return library
    }

    static func replacing(_ pattern: String, with replacement: String, in text: String) throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        guard expression.firstMatch(in: text, range: range) != nil else {
            throw FixtureBuilder.Failure(description: "beehive.h no longer has \(pattern)")
        }
        return expression.stringByReplacingMatches(in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
    }

    static func folder(_ name: String) throws -> URL {
        let folder = try FixtureHost.temporaryDirectory("compat-\(name)")
        chmod(folder.path, 0o755)
        return folder
    }

    @Test func aPluginBuiltAgainstAnotherBeeHiveInterfaceIsRefusedBeforeItRuns() throws {
        let folder = try Self.folder("foreign")
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appending(path: "ran")
        let library = try Self.plugin("foreign", .foreignInterface, linksBeeHive: true, marker: marker, in: folder)

        let linkage = try ObjectLinkage.read(atPath: library.path).get()
        #expect(linkage.linksBeeHive && linkage.interfaceFingerprint == Self.foreignInterface)
        let expected = PluginIncompatibility.otherBeeHiveInterface(plugin: Self.foreignInterface, host: PluginIncompatibility.hostInterface)
        #expect(throws: PluginError.self) { try Plugin.load(atPath: library.path) }
        do {
            _ = try Plugin.load(atPath: library.path)
        } catch {
            #expect(error.kind == .incompatible && error.incompatibility == expected)
            #expect(error.description.contains(library.path) && error.description.contains("0x0123456789abcdef"), "\(error)")
            #expect(error.description.contains("rebuild the plugin against the BeeHive the host ships"), "\(error)")
        }
        #expect(Plugin.loadedIdentity(atPath: library.path) == nil, "the loader never mapped it")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "its constructor never ran")
    }

    /// A plugin that carries its own copy of a Swift module the process has from one of its libraries (here
    /// FoundationEssentials, as if linked into the plugin) is refused before `dlopen`, naming the module and
    /// the library; a module no library of the process has is the plugin's own.
    @Test func aPluginCarryingItsOwnCopyOfALoadedSwiftModuleIsRefusedBeforeItRuns() throws {
        let folder = try Self.folder("copied-module")
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appending(path: "ran")
        let descriptor = "$s20FoundationEssentials4DataVMn"
        let library = try Self.plugin("copiesmodule", .current, linksBeeHive: false, marker: marker, copying: descriptor, in: folder)
        #expect(try ObjectLinkage.read(atPath: library.path).get().swiftModules == ["FoundationEssentials": descriptor])
        do {
            _ = try Plugin.load(atPath: library.path)
            Issue.record("\(library.path) loaded")
        } catch {
            #expect(error.kind == .incompatible)
            guard case .duplicateSwiftModules(let modules, let owner)? = error.incompatibility else {
                Issue.record("not a copied module: \(error)")
                return
            }
            #expect(modules == ["FoundationEssentials"] && owner.hasSuffix("/libFoundationEssentials.so"), "\(error)")
            #expect(error.description.contains("its own copy of the Swift module FoundationEssentials, which this process already has from \(owner)"), "\(error)")
        }
        #expect(Plugin.loadedIdentity(atPath: library.path) == nil, "the loader never mapped it")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "its constructor never ran")

        let ownMarker = folder.appending(path: "own ran")
        let own = try Self.plugin("ownmodule", .current, linksBeeHive: false, marker: ownMarker, copying: "$s15CompatOwnModule5ThingVMn", in: folder)
        #expect(try ObjectLinkage.read(atPath: own.path).get().swiftModules == ["CompatOwnModule": "$s15CompatOwnModule5ThingVMn"])
        let plugin = try Plugin.load(atPath: own.path)
        #expect(FileManager.default.fileExists(atPath: ownMarker.path))
        try plugin.unload()
    }

    /// A plugin needing a library that no folder the loader searches holds is refused before `dlopen`, naming
    /// the library; the same plugin with `$ORIGIN/deps` (or `${ORIGIN}/deps` after another folder) in its
    /// RUNPATH, where the library is, loads and runs.
    @Test func aPluginWhoseLibraryIsMissingIsRefusedBeforeItRuns() throws {
        let folder = try Self.folder("missing-library")
        defer { try? FileManager.default.removeItem(at: folder) }
        let deps = folder.appending(path: "deps")
        try FileManager.default.createDirectory(at: deps, withIntermediateDirectories: true)
        let source = folder.appending(path: "dep.c")
        try "int beehive_compat_dependency(void) { return 7; }\n".write(to: source, atomically: true, encoding: .utf8)
        let cc = try SystemTools.require("cc")
        let dependency = try FixtureBuilder.run(cc, ["-shared", "-fPIC", source.path, "-o", deps.appending(path: "libbeehivedep.so").path])
        #expect(dependency.status == 0, "\(dependency.output)")
        func plugin(_ name: String, runpath: String?) throws -> URL {
            let library = folder.appending(path: "lib\(name).so")
            let marker = folder.appending(path: "\(name) ran")
            let built = try FixtureBuilder.run(cc, [
                "-shared", "-fPIC", "-I", FixtureBuilder.repositoryRoot.appending(path: "CSectionShim/include").path,
                "-DCOMPAT_MARKER=\"\(marker.path)\"", FixtureBuilder.fixturesRoot.appending(path: "CPlugins/compat.c").path,
                "-o", library.path, "-L", deps.path, "-Wl,--no-as-needed", "-lbeehivedep",
            ] + (runpath.map { ["-Wl,-rpath,\($0)"] } ?? []))
            #expect(built.status == 0, "\(built.output)")
            return library
        }
        let missing = try plugin("needsmissing", runpath: nil)
        #expect(try SystemTools.neededLibraries(missing).contains("libbeehivedep.so"))
        do {
            _ = try Plugin.load(atPath: missing.path)
            Issue.record("\(missing.path) loaded without its library")
        } catch {
            guard case .missingLibrary(let name, let searched)? = error.incompatibility else {
                Issue.record("not a missing library: \(error)")
                return
            }
            #expect(error.kind == .incompatible && name == "libbeehivedep.so")
            #expect(searched.contains("/usr/lib") && !searched.contains(deps.path), "\(searched)")
            #expect(error.description.contains("it needs libbeehivedep.so, which is not in /etc/ld.so.cache"), "\(error)")
        }
        #expect(Plugin.loadedIdentity(atPath: missing.path) == nil, "the loader never mapped it")
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "needsmissing ran").path))

        // The search reads a RUNPATH as the loader does: entries split at colons, `$ORIGIN` or `${ORIGIN}`.
        for (name, runpath) in [("findsit", "$ORIGIN/deps"), ("findsitbraced", "/nonexistent/lib:${ORIGIN}/deps")] {
            let found = try plugin(name, runpath: runpath)
            let loaded = try Plugin.load(atPath: found.path)
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "\(name) ran").path), "\(runpath)")
            try loaded.unload()
        }
    }

    /// The check is for plugins that call BeeHive: a C plugin that carries records only is read whatever
    /// header it was built with. Its constructor runs: it is loaded.
    @Test func aCPluginThatDoesNotLinkBeeHiveIsNotChecked() throws {
        let folder = try Self.folder("c-only")
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appending(path: "ran")
        let library = try Self.plugin("conly", .foreignInterface, linksBeeHive: false, marker: marker, in: folder)
        let plugin = try Plugin.load(atPath: library.path)
        #expect(FileManager.default.fileExists(atPath: marker.path))
        try plugin.unload()
    }

    /// A folder holding a foreign plugin beside a good one: `start()` fails on it with `.failOnProblems`, naming
    /// the file and both interfaces, and `beehive index` lists it among the files it skipped.
    @Test func aFolderRefusesItAtStartAndTheIndexToolSaysWhy() async throws {
        let folder = try Self.folder("folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugins = folder.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        chmod(plugins.path, 0o755)
        let foreign = try SystemTools.copy(Self.plugin("foreign", .foreignInterface, linksBeeHive: true, in: folder), into: plugins)
        _ = try SystemTools.copy(Self.plugin("conly", .current, linksBeeHive: false, in: folder), into: plugins)

        let hive = Hive(registry: AnnotationRegistry(source: ScriptedSource()))
        let host = HiveHost(
            hive: hive, startupCheck: .failOnProblems, logger: Logger(label: "compat"),
            environment: [Hive.pluginPathVariable: plugins.path, "XDG_CACHE_HOME": folder.appending(path: "cache").path])
        do {
            try await host.start()
            Issue.record("start should fail on \(foreign.path)")
        } catch {
            guard case HiveError.invalidAnnotations(let problems) = error, case .pluginRefused(let refusal)? = problems.first else {
                Issue.record("not a refusal: \(error)")
                return
            }
            #expect(problems.count == 1, "\(problems)")
            #expect(refusal.path == foreign.path)
            #expect(refusal.reason == .incompatible(
                .otherBeeHiveInterface(plugin: Self.foreignInterface, host: PluginIncompatibility.hostInterface)))
            #expect("\(refusal)".contains("remove it from the folder"), "\(refusal)")
        }
        #expect(Plugin.loadedIdentity(atPath: foreign.path) == nil)

        let index = try FixtureBuilder.run(try InspectionToolTests.beehive(), ["index", plugins.path, "--no-cache"])
        #expect(index.output.contains("libforeign.so") && index.output.contains("another version of BeeHive"), "\(index.output)")
        #expect(index.output.contains("libconly.so"), "\(index.output)")
    }

    /// `beehive lint` on files built against two interfaces reports the one that differs from the first, and
    /// `beehive inspect` shows the interface each file carries.
    @Test func lintReportsAPluginOfAnotherInterfaceBesideItsHost() throws {
        let folder = try Self.folder("lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        let current = try Self.plugin("current", .current, linksBeeHive: true, in: folder)
        let foreign = try Self.plugin("foreign", .foreignInterface, linksBeeHive: true, in: folder)
        let beehive = try InspectionToolTests.beehive()
        let lint = try FixtureBuilder.run(beehive, ["lint", current.path, foreign.path])
        #expect(lint.status != 0, "\(lint.output)")
        #expect(lint.output.contains("\(foreign.path): error: was built against BeeHive interface 0x0123456789abcdef, "
            + "and \(current.path) against \(PluginIncompatibility.hex(PluginIncompatibility.hostInterface))"), "\(lint.output)")
        let same = try FixtureBuilder.run(beehive, ["lint", current.path])
        #expect(!same.output.contains("BeeHive interface"), "\(same.output)")

        let inspect = try FixtureBuilder.run(beehive, ["inspect", "--json", current.path, foreign.path])
        let report = try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any]
        let files = try #require(report?["files"] as? [[String: Any]], "\(inspect.output)")
        #expect(files.map { $0["interface"] as? String } == [PluginIncompatibility.hex(PluginIncompatibility.hostInterface), "0x0123456789abcdef"])
        #expect(files[0]["incompatibility"] is NSNull)
        #expect((files[1]["incompatibility"] as? String)?.contains("another version of BeeHive") == true)
        let text = try FixtureBuilder.run(beehive, ["inspect", foreign.path])
        #expect(text.output.contains("\(foreign.path): warning: a host built with this BeeHive refuses to load it"), "\(text.output)")
    }

    /// Offline, `beehive lint` reports an annotated file that carries its own copy of a Swift module that a file
    /// linted beside it exports (here a library standing for libBeeHiveHummingbird.so, exporting Hummingbird).
    @Test func lintReportsAPluginCarryingACopyOfAModuleOfALibraryBesideIt() throws {
        let folder = try Self.folder("lint-copy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appending(path: "libdescriptors.so")
        let built = try FixtureBuilder.run(try SystemTools.require("cc"), [
            "-shared", "-fPIC", "-nostdlib", FixtureBuilder.repositoryRoot.appending(path: "Fuzz/Seeds/swift-descriptors.c").path,
            "-o", library.path,
        ])
        #expect(built.status == 0, "\(built.output)")
        let plugin = try Self.plugin("copieshummingbird", .current, linksBeeHive: false, copying: "$s11Hummingbird8ResponseVMn", in: folder)
        let beehive = try InspectionToolTests.beehive()
        let lint = try FixtureBuilder.run(beehive, ["lint", library.path, plugin.path])
        #expect(lint.output.contains("\(plugin.path): error: carries its own copy of the Swift module Hummingbird, which \(library.path) exports too"), "\(lint.output)")
        let alone = try FixtureBuilder.run(beehive, ["lint", plugin.path])
        #expect(!alone.output.contains("its own copy"), "\(alone.output)")

        let inspect = try FixtureBuilder.run(beehive, ["inspect", "--json", library.path, plugin.path])
        let report = try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any]
        let files = try #require(report?["files"] as? [[String: Any]], "\(inspect.output)")
        #expect(files.map { $0["swiftModules"] as? [String] } == [["Hummingbird", "ShopInterfaces"], ["Hummingbird"]])
    }

    /// A Swift plugin built with another Swift toolchain than the runtime the host runs on is refused before
    /// `dlopen` and at indexing, naming both toolchains; built with this one, it loads. The plugin is C that
    /// links libswiftCore.so, as a Swift plugin does, with the toolchain line a Swift binary keeps in `.comment`.
    @Test func aPluginBuiltWithAnotherSwiftToolchainIsRefusedBeforeItRuns() throws {
        let host = try #require(SwiftRuntime.toolchain)
        #expect(host.hasPrefix("clang version ") && host.contains("llvm-project"), "\(host)")
        #expect(try ObjectLinkage.read(atPath: "/proc/self/exe").get().swiftToolchain == host, "the tests are built with it")
        guard case .shared(let runtime) = SwiftRuntime.current else {
            Issue.record("the tests run on the shared Swift runtime")
            return
        }
        let runtimeFolder = URL(filePath: runtime).deletingLastPathComponent().path
        let folder = try Self.folder("toolchain")
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = "clang version 20.1.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef0123456789abcdef01234567)"
        func plugin(_ name: String, toolchain: String) throws -> (library: URL, marker: URL) {
            let marker = folder.appending(path: "\(name) ran")
            let source = folder.appending(path: "\(name).c")
            try """
                #include <stdio.h>
                __asm__(".pushsection .comment,\\"MS\\",%progbits,1\\n.asciz \\"\(toolchain)\\"\\n.popsection\\n");
                __attribute__((constructor)) static void ran(void) { fclose(fopen("\(marker.path)", "w")); }
                """.write(to: source, atomically: true, encoding: .utf8)
            let library = folder.appending(path: "lib\(name).so")
            let run = try FixtureBuilder.run(try SystemTools.require("cc"), [
                "-shared", "-fPIC", source.path, "-o", library.path, "-L", runtimeFolder, "-Wl,--no-as-needed", "-lswiftCore",
                "-Wl,-rpath,\(runtimeFolder)",
            ])
            guard run.status == 0 else { throw FixtureBuilder.Failure(description: "cc failed:\n\(run.output)") }
            chmod(library.path, 0o644)
            return (library, marker)
        }
        let foreign = try plugin("othertoolchain", toolchain: other)
        let linkage = try ObjectLinkage.read(atPath: foreign.library.path).get()
        #expect(linkage.needsSharedSwiftRuntime && linkage.swiftToolchain == other)
        do {
            _ = try Plugin.load(atPath: foreign.library.path)
            Issue.record("\(foreign.library.path) loaded")
        } catch {
            #expect(error.incompatibility == .otherSwiftToolchain(plugin: other, host: host), "\(error)")
            #expect(error.description.contains("another Swift toolchain (\(other)) than the Swift runtime this process runs on (\(host))"), "\(error)")
        }
        #expect(Plugin.loadedIdentity(atPath: foreign.library.path) == nil, "the loader never mapped it")
        #expect(!FileManager.default.fileExists(atPath: foreign.marker.path), "its constructor never ran")

        let plugins = folder.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        chmod(plugins.path, 0o755)
        _ = try SystemTools.copy(foreign.library, into: plugins)
        let index = try PluginIndex.build(folder: plugins.path, cache: nil, trust: .strict)
        #expect(index.plugins.isEmpty && index.refused.map(\.reason) == [.incompatible(.otherSwiftToolchain(plugin: other, host: host))], "\(index.refused)")

        let inspect = try FixtureBuilder.run(try InspectionToolTests.beehive(), ["inspect", "--json", foreign.library.path])
        let report = try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any]
        let file = try #require((report?["files"] as? [[String: Any]])?.first, "\(inspect.output)")
        #expect(file["swiftToolchain"] as? String == other, "\(inspect.output)")
        #expect((file["incompatibility"] as? String)?.contains("another Swift toolchain") == true, "\(inspect.output)")

        let same = try plugin("sametoolchain", toolchain: host)
        let loaded = try Plugin.load(atPath: same.library.path)
        #expect(FileManager.default.fileExists(atPath: same.marker.path), "its constructor ran")
        try loaded.unload()
    }

    /// Tests/Fixtures/SharedProtocols/`version`.swift built as `folder/version/libShared.so`, and the plugin
    /// built against it as `folder/version/libGreeter.so`, with swiftc as a package build would.
    static func sharedProtocols(_ version: String, in folder: URL) throws -> (library: URL, plugin: URL) {
        let swiftc = FixtureBuilder.swiftExecutable.deletingLastPathComponent().appending(path: "swiftc")
        let sources = FixtureBuilder.fixturesRoot.appending(path: "SharedProtocols")
        let built = folder.appending(path: version)
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
        let library = built.appending(path: "libShared.so")
        let plugin = built.appending(path: "libGreeter.so")
        for arguments in [
            ["-emit-library", "-module-name", "Shared", "-emit-module-path", built.appending(path: "Shared.swiftmodule").path,
             "-Xlinker", "-soname", "-Xlinker", "libShared.so", sources.appending(path: "\(version).swift").path, "-o", library.path],
            ["-emit-library", "-module-name", "Greeter", "-I", built.path, "-L", built.path, "-lShared",
             "-Xlinker", "-rpath", "-Xlinker", built.path, sources.appending(path: "GreeterPlugin.swift").path, "-o", plugin.path],
        ] {
            let run = try FixtureBuilder.run(swiftc, arguments, currentDirectory: built)
            guard run.status == 0 else { throw FixtureBuilder.Failure(description: "swiftc \(arguments.joined(separator: " ")) failed:\n\(run.output)") }
        }
        chmod(plugin.path, 0o644)
        return (library, plugin)
    }

    /// A plugin compiled against one version of a protocol library the host shares with it, loaded into a host
    /// that has another, is refused before `dlopen` when the protocol's requirements were added to or taken
    /// from, naming the protocol, both counts and the library: before, a call through its conformance read past
    /// the witness table (a crash) or reached another requirement. The plugin rebuilt against the host's
    /// version loads and answers. Each host is a child process (this test binary) that loads one version of the
    /// library as a host's executable would link it.
    @Test func aPluginBuiltAgainstAnotherVersionOfASharedProtocolIsRefusedBeforeItRuns() throws {
        if let plan = ProcessInfo.processInfo.environment[Self.sharedProtocolsVariable] {
            Self.runSharedProtocolsChild(plan.split(separator: ":").map(String.init))
        }
        let folder = try Self.folder("shared-protocols")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try Self.sharedProtocols("Greeting-1", in: folder)
        let appended = try Self.sharedProtocols("Greeting-2-appended", in: folder)
        let inserted = try Self.sharedProtocols("Greeting-3-inserted", in: folder)

        let linkage = try ObjectLinkage.read(atPath: first.plugin.path).get()
        #expect(linkage.importedProtocols.contains("$s6Shared8GreetingMp"), "\(linkage.importedProtocols)")
        #expect(linkage.witnessTables.contains { $0.key.hasSuffix("6Shared8GreetingAAWP") && $0.value == 16 }, "\(linkage.witnessTables)")

        func host(_ library: URL, loading plugins: [URL]) throws -> String {
            let run = try FixtureBuilder.run(
                URL(filePath: "/proc/self/exe").resolvingSymlinksInPath(),
                ["--testing-library", "swift-testing", "--filter", "aPluginBuiltAgainstAnotherVersionOfASharedProtocolIsRefusedBeforeItRuns"],
                environment: [Self.sharedProtocolsVariable: ([library] + plugins).map(\.path).joined(separator: ":")])
            #expect(run.status == 0, "\(run.output)")
            return run.standardOutput
        }
        // Host and library of the second version: the plugin of the first is refused, its rebuild loads.
        let second = try host(appended.library, loading: [first.plugin, appended.plugin])
        #expect(second.contains("refused \(first.plugin.path): Shared.Greeting 1 2 \(appended.library.path)"), "\(second)")
        #expect(second.contains("its conformance has 1 requirement and the Shared.Greeting loaded from \(appended.library.path) has 2"), "\(second)")
        #expect(second.contains("loaded \(appended.plugin.path): hello"), "\(second)")
        #expect(!second.contains("mapped \(first.plugin.path)"), "the loader never mapped it: \(second)")
        // A newer plugin (a requirement inserted) in a host of the first version is refused; its rebuild loads.
        let older = try host(first.library, loading: [inserted.plugin, first.plugin])
        #expect(older.contains("refused \(inserted.plugin.path): Shared.Greeting 2 1 \(first.library.path)"), "\(older)")
        #expect(older.contains("loaded \(first.plugin.path): hello"), "\(older)")

        // Offline, beside the library it would be loaded with.
        let beehive = try InspectionToolTests.beehive()
        let lint = try FixtureBuilder.run(beehive, ["lint", appended.library.path, first.plugin.path, appended.plugin.path])
        #expect(lint.output.contains(
            "\(first.plugin.path): error: conforms to Shared.Greeting as compiled with 1 requirement, and \(appended.library.path), which defines it, has 2"),
            "\(lint.output)")
        #expect(!lint.output.contains("\(appended.plugin.path): error"), "\(lint.output)")
    }

    private static func runSharedProtocolsChild(_ paths: [String]) -> Never {
        guard let library = paths.first, dlopen(library, RTLD_NOW | RTLD_GLOBAL) != nil else {
            print("cannot load the host's library: \(String(cString: dlerror()))")
            _exit(1)
        }
        for path in paths.dropFirst() {
            do {
                _ = try Plugin.load(atPath: path)
                typealias Greet = @convention(c) () -> UnsafeMutablePointer<CChar>?
                guard let symbol = dlsym(dlopen(path, RTLD_NOW | RTLD_NOLOAD), "compat_greet"),
                      let answer = unsafeBitCast(symbol, to: Greet.self)()
                else {
                    print("loaded \(path) without compat_greet")
                    continue
                }
                print("loaded \(path): \(String(cString: answer))")
                free(answer)
            } catch {
                if case .otherProtocolRequirements(let name, let plugin, let host, let definedIn)? = error.incompatibility {
                    print("refused \(path): \(name) \(plugin) \(host) \(definedIn)")
                }
                print("error: \(error)")
                if Plugin.loadedIdentity(atPath: path) != nil { print("mapped \(path)") }
            }
        }
        fflush(nil)
        _exit(0)
    }

    /// Built against this BeeHive, or with the note of the BeeHive before fingerprints: both load and run, in a
    /// child process that prints what each load gave.
    @Test func pluginsOfThisInterfaceAndOfTheNoteBeforeItLoad() throws {
        if let paths = ProcessInfo.processInfo.environment[Self.childVariable] {
            Self.runChild(paths.split(separator: ":").map(String.init))
        }
        let folder = try Self.folder("loads")
        defer { try? FileManager.default.removeItem(at: folder) }
        let current = try Self.plugin("current", .current, linksBeeHive: true, marker: folder.appending(path: "current ran"), in: folder)
        let previous = try Self.plugin("previous", .previousNote, linksBeeHive: true, marker: folder.appending(path: "previous ran"), in: folder)
        #expect(try ObjectLinkage.read(atPath: current.path).get().interfaceFingerprint == PluginIncompatibility.hostInterface)
        #expect(try ObjectLinkage.read(atPath: previous.path).get().interfaceFingerprint == nil)

        let run = try FixtureBuilder.run(
            URL(filePath: "/proc/self/exe").resolvingSymlinksInPath(),
            ["--testing-library", "swift-testing", "--filter", "pluginsOfThisInterfaceAndOfTheNoteBeforeItLoad"],
            environment: [Self.childVariable: "\(current.path):\(previous.path)"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.standardOutput.contains("loaded \(current.path)"), "\(run.output)")
        #expect(run.standardOutput.contains("loaded \(previous.path)"), "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "current ran").path), "its constructor ran")
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "previous ran").path), "its constructor ran")
    }

    private static func runChild(_ paths: [String]) -> Never {
        var failed = false
        for path in paths {
            do {
                _ = try Plugin.load(atPath: path)
                print("loaded \(path)")
            } catch {
                print("refused \(path): \(error)")
                failed = true
            }
        }
        fflush(nil)
        _exit(failed ? 1 : 0)
    }
}
