@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Glibc
import Testing

/// The offline index of a plugin folder: what it reads, what it reports, and that it runs no plugin.
@Suite(.timeLimit(.minutes(10))) struct PluginIndexTests {
    @Test func indexesEveryPluginWithoutLoadingIt() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        for index in 0..<3 { try folder.addPlugin(index) }
        let (index, reads) = try folder.index(cache: nil)
        #expect(reads.count == 3)
        #expect(index.plugins.map(\.fileName) == ["libplugin0.so", "libplugin1.so", "libplugin2.so"])
        #expect(index.plugins[1].records.map(\.identity) == [
            RecordIdentity(kind: .service, name: "Plugins.Service1"),
            RecordIdentity(kind: .route, name: "/plugin1/:id"),
            RecordIdentity(kind: .target, name: "target1"),
        ])
        #expect(index.plugins.allSatisfy { $0.isAnnotated && $0.buildID != nil && !$0.isFromCache })
        #expect(index.plugins[0].records.allSatisfy { $0.origin.objectPath == index.plugins[0].path })
        #expect(index.problems.isEmpty && index.refused.isEmpty && index.conflicts().isEmpty)
        // Read with libelf only: none of them is mapped into this process.
        #expect(try mappedFiles(in: index.folder).isEmpty)
    }

    @Test func badFilesAreReportedWithTheirPathAndSkipped() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        try folder.addPlugin(0)
        let good = try TestLibrary.build(PluginFolder.source(1))
        let notELF = try folder.add(bytes: Array("not a library\n".utf8), name: "libtext.so")
        let truncated = try folder.add(bytes: Array(good.prefix(300)), name: "libcut.so")
        try folder.add(bytes: Array("ignored: not a shared object name\n".utf8), name: "README")
        let badRecord = try folder.addPlugin(2, name: "libbad.so", extra: #"BEEHIVE_RECORD_(BEEHIVE_SECTION_SERVICES, "beehive:1|service|Broken")"#)
        let (index, _) = try folder.index(cache: nil)
        #expect(index.plugins.map(\.fileName) == ["libbad.so", "libplugin0.so"])
        let badIndex = try #require(index.plugins.first)
        #expect(badIndex.records.map(\.identity.kind) == [.service, .route, .target])
        let problems = Dictionary(grouping: index.problems, by: { $0.objectPath ?? "" })
        // A file that is not ELF is refused, naming what to do; a damaged one is a problem.
        #expect(index.refused == [PluginAccessError(path: notELF, role: .plugin, reason: .notELF)])
        #expect(index.refused.first?.description.contains("remove it from the folder") == true)
        #expect(problems[truncated]?.count == 1)
        #expect(problems[badRecord]?.map(\.kind.name) == ["malformedRecord"])
        #expect(problems.count == 2)
    }

    /// Enough files to be read on several threads: the index is the one a single thread makes, in the folder's
    /// order, with each bad or refused file reported where it lies.
    @Test func filesReadOnSeveralThreadsKeepTheFoldersOrder() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        let plugin = try TestLibrary.build(PluginFolder.source(0))
        let names = (0..<40).map { String(format: "libplugin%02d.so", $0) }
        for name in names { try folder.add(bytes: plugin, name: name) }
        let notELF = try folder.add(bytes: Array("not a library\n".utf8), name: "libplugin10x.so")
        let writable = try folder.add(bytes: plugin, name: "libplugin20x.so", mode: 0o666)
        chmod(writable, 0o666)
        let (cold, reads) = try folder.index(cache: nil)
        #expect(Set(reads).count == 41)
        #expect(cold.plugins.map(\.fileName) == names)
        #expect(cold.problems.isEmpty)
        #expect(cold.refused.map(\.path) == [notELF, writable])
        // Every plugin declares the same things: the first file is the first declaring, the others repeat it.
        let identity = RecordIdentity(kind: .service, name: "Plugins.Service0")
        #expect(cold.plugin(declaring: identity)?.fileName == names[0])
        #expect(cold.conflicts().first { $0.identity == identity }?.paths == cold.plugins.map(\.path))
        // The warm index (no file read) is the same.
        _ = try folder.index()
        let (warm, warmReads) = try folder.index()
        #expect(warmReads == [notELF])
        #expect(warm.plugins.map(\.fileName) == names && warm.plugins.allSatisfy(\.isFromCache))
        #expect(warm.plugins.map(\.records) == cold.plugins.map(\.records))
        #expect(warm.refused.map(\.path) == [notELF, writable])
    }

    @Test func conflictsBetweenPluginsAreReportedBeforeLoading() throws {
        let folder = try PluginFolder()
        defer { folder.remove() }
        let first = try folder.addPlugin(0)
        let second = try folder.addPlugin(1, extra: #"BeeHiveService(Plugins.Service0, Plugins.Other)"#)
        let (index, _) = try folder.index(cache: nil)
        #expect(index.conflicts() == [PluginConflict(identity: RecordIdentity(kind: .service, name: "Plugins.Service0"), paths: [first, second])])
        let linked = AnnotationRecord(
            payload: .target(TargetAnnotation(name: "target1", typeName: "App.Target")), text: "beehive:1|target|target1|App.Target",
            origin: RecordOrigin(objectPath: "/app", section: SectionName.routes, offset: 0))
        #expect(index.conflicts(with: [linked]).map(\.paths).contains([second, "/app"]))
    }

    @Test func missingFolderOrFileIsATypedError() throws {
        #expect(throws: PluginAccessError.self) { try PluginIndex.build(folder: "/nonexistent/plugins", cache: nil) }
        #expect {
            try PluginIndex.build(folder: "/etc/hostname", cache: nil)
        } throws: { ($0 as? PluginAccessError)?.reason == .notAFolder }
    }
}
