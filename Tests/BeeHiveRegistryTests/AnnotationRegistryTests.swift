@_spi(BeeHiveInternals) import BeeHiveRegistry
import Glibc
import Synchronization
import Testing

/// An annotation source fed by the test: each `poll()` hands out the next queued batch of events.
private final class FakeAnnotationSource: AnnotationSource {
    private let batches = Mutex<[[ObjectEvent]]>([])

    /// Queues one batch: what one `poll()` returns.
    func enqueue(_ events: ObjectEvent...) {
        enqueue(contentsOf: events)
    }

    func enqueue(contentsOf events: [ObjectEvent]) {
        batches.withLock { $0.append(events) }
    }

    func poll() -> [ObjectEvent] {
        batches.withLock { $0.isEmpty ? [] : $0.removeFirst() }
    }
}

/// An object as discovery would hand it over: each record stored in its kind's section, then parsed.
private func object(_ id: UInt64, _ path: String, _ records: [String]) -> ObjectAnnotations {
    func section(of text: String) -> String {
        let kind = text.split(separator: "|").dropFirst().first.flatMap { AnnotationKind(rawValue: String($0)) }
        return kind?.section ?? SectionName.modules
    }
    var parsed: [AnnotationRecord] = []
    var diagnostics: [RegistryDiagnostic] = []
    for name in SectionName.all {
        let bytes = records.filter { section(of: $0) == name }.flatMap { text -> [UInt8] in Array(text.utf8) + [0] }
        let result = RecordParser.records(inSection: name, bytes: bytes, objectPath: path)
        parsed += result.records
        diagnostics += result.diagnostics
    }
    return ObjectAnnotations(
        object: LoadedObject(id: id, path: path, buildID: String(id, radix: 16), baseAddress: UInt(id) << 20),
        isAnnotated: true, records: parsed, diagnostics: diagnostics)
}

/// The object a duplicate diagnostic names as the first declaration.
private func firstObject(of diagnostic: RegistryDiagnostic) -> String? {
    if case .duplicate(_, let first) = diagnostic.kind { return first }
    return nil
}

private let shop = object(1, "/app/lib/libShop.so", [
    "beehive:1|module|Shop.ShopModule|level=basic", "beehive:1|service|Shop.Cart|Shop.CartImpl",
    "beehive:1|route|/shop|Shop.ShopHandler",
])
private let sharedA = object(2, "/app/lib/libA.so", ["beehive:1|module|Shared.Twice", "beehive:1|service|Shared.P|A.Impl"])
private let sharedB = object(3, "/app/lib/libB.so", ["beehive:1|module|Shared.Twice", "beehive:1|service|Shared.P|B.Impl"])
private let broken = object(4, "/app/lib/libBroken.so", ["beehive:1|module|Broken.Good", "beehive:9|module|Broken.Future"])

@Suite struct AnnotationRegistryTests {
    @Test func recordsArriveWithTheirObjects() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        #expect(registry.records.isEmpty)
        source.enqueue(.loaded(shop))
        let update = registry.refresh()
        #expect(update.loadedObjects == [shop.object])
        #expect(update.added.count == 3)
        #expect(Set(registry.records) == Set(shop.records))
        #expect(registry.objects == [shop])
        #expect(registry.refresh().isEmpty)
    }

    /// A registry read before anyone refreshed it answers with what the source holds, not with nothing; that
    /// first update is in `snapshot()`, not in a later `refresh()`.
    @Test func firstReadTakesInWhatTheSourceHolds() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(shop), .loaded(broken))
        #expect(Set(registry.records) == Set(Array(shop.records) + Array(broken.records)))
        #expect(registry.objects == [broken, shop].sorted { $0.object.path < $1.object.path })
        #expect(registry.diagnostics == broken.diagnostics && !broken.diagnostics.isEmpty)
        #expect(registry.refresh().isEmpty)
        #expect(registry.snapshot().added == registry.records)
    }

    /// A consumer that starts after the registry was refreshed gets everything from `snapshot()`, which also
    /// takes in what arrived since, and a second snapshot is as full as the first.
    @Test func snapshotHoldsEverythingHoweverOftenRefreshed() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(sharedB), .loaded(sharedA))
        source.enqueue(.loaded(shop))
        #expect(registry.refresh().added.count == 4)
        let snapshot = registry.snapshot()
        #expect(snapshot.loadedObjects == [sharedA.object, sharedB.object, shop.object])
        #expect(snapshot.added == registry.records)
        #expect(snapshot.added.count == 7)
        #expect(snapshot.diagnostics.count == 2)
        #expect(snapshot.removed.isEmpty && snapshot.unloadedObjects.isEmpty)
        #expect(registry.snapshot() == snapshot)
        #expect(registry.refresh().isEmpty)
    }

    @Test func duplicatesAcrossTwoObjectsNameBothPaths() throws {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(sharedB), .loaded(sharedA))
        let update = registry.refresh()
        #expect(update.diagnostics.count == 2)
        let module = try #require(update.diagnostics.first { $0.record == "beehive:1|module|Shared.Twice" })
        #expect(module.kind.name == "duplicate" && firstObject(of: module) == "/app/lib/libA.so")
        #expect(module.objectPath == "/app/lib/libB.so")
        #expect(module.severity == .warning)
        #expect(module.description.contains("/app/lib/libA.so") && module.description.contains("/app/lib/libB.so"))
        let service = try #require(update.diagnostics.first { $0.section == SectionName.services })
        #expect(service.kind.name == "duplicate" && firstObject(of: service) == "/app/lib/libA.so")
        // Both declarations are kept; which one wins is the managers' policy.
        #expect(registry.records.filter { $0.text == "beehive:1|module|Shared.Twice" }.map(\.origin.objectPath) == ["/app/lib/libA.so", "/app/lib/libB.so"])
        #expect(registry.diagnostics == update.diagnostics)
    }

    @Test func duplicateOfAnObjectLoadedEarlierNamesTheEarlierOne() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(sharedB))
        source.enqueue(.loaded(sharedA))
        #expect(registry.refresh().diagnostics.isEmpty)
        let later = registry.refresh().diagnostics
        #expect(later.map(\.record) == ["beehive:1|module|Shared.Twice", "beehive:1|service|Shared.P|A.Impl"])
        #expect(later.allSatisfy { $0.kind.name == "duplicate" && firstObject(of: $0) == "/app/lib/libB.so" })
        #expect(later.allSatisfy { $0.objectPath == "/app/lib/libA.so" })
    }

    @Test func sameNamesWithDifferentServiceNamesOrSchemesAreNotDuplicates() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(
            .loaded(object(1, "/a.so", ["beehive:1|service|S.P|S.A|scope=named|name=one", "beehive:1|route|/x|S.H|scheme=a"])),
            .loaded(object(2, "/b.so", ["beehive:1|service|S.P|S.B|scope=named|name=two", "beehive:1|route|/x|S.H|scheme=b"])))
        #expect(registry.refresh().diagnostics.isEmpty)
        #expect(registry.records.count == 4)
    }

    /// The four test objects, all arriving in one refresh: the order the others are compared with.
    static func allAtOnce() -> AnnotationRegistry {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(shop), .loaded(sharedA), .loaded(sharedB), .loaded(broken))
        registry.refresh()
        return registry
    }

    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]])
    func orderDoesNotDependOnArrivalOrder(order: [Int]) {
        let objects = [shop, sharedA, sharedB, broken]
        let expected = Self.allAtOnce()

        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(contentsOf: order.map { .loaded(objects[$0]) })
        let update = registry.refresh()
        #expect(registry.records == expected.records)
        #expect(update.added == expected.records)
        #expect(registry.diagnostics == expected.diagnostics)
        #expect(registry.objects.map(\.object.path) == ["/app/lib/libA.so", "/app/lib/libB.so", "/app/lib/libBroken.so", "/app/lib/libShop.so"])
    }

    /// Records of later refreshes are merged into those held: the same order as all arriving at once.
    @Test func recordsMergedOverSeveralRefreshesKeepTheOneOrder() {
        let expected = Self.allAtOnce()

        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        for batch in [[sharedB], [shop], [broken, sharedA]] {
            source.enqueue(contentsOf: batch.map { .loaded($0) })
            registry.refresh()
        }
        #expect(registry.records == expected.records)
    }

    @Test func recordsAreOrderedByKindIdentityAndPath() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(shop), .loaded(sharedB), .loaded(sharedA))
        registry.refresh()
        #expect(registry.records.map(\.text) == [
            "beehive:1|module|Shared.Twice", "beehive:1|module|Shared.Twice", "beehive:1|module|Shop.ShopModule|level=basic",
            "beehive:1|service|Shared.P|A.Impl", "beehive:1|service|Shared.P|B.Impl", "beehive:1|service|Shop.Cart|Shop.CartImpl",
            "beehive:1|route|/shop|Shop.ShopHandler",
        ])
    }

    @Test func unloadRemovesTheObjectsRecords() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(shop), .loaded(sharedA))
        registry.refresh()
        source.enqueue(.unloaded(shop.object))
        let update = registry.refresh()
        #expect(update.unloadedObjects == [shop.object])
        #expect(Set(update.removed) == Set(shop.records))
        #expect(update.added.isEmpty)
        #expect(Set(registry.records) == Set(sharedA.records))
        #expect(registry.objects.map(\.object) == [sharedA.object])
    }

    @Test func unloadThenLoadAgainIsANewObject() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(sharedA))
        registry.refresh()
        let reloaded = object(9, "/app/lib/libA.so", ["beehive:1|module|Shared.Twice", "beehive:1|service|Shared.P|A.Impl"])
        source.enqueue(.unloaded(sharedA.object), .loaded(reloaded))
        let update = registry.refresh()
        #expect(update.unloadedObjects == [sharedA.object] && update.loadedObjects == [reloaded.object])
        #expect(update.diagnostics.isEmpty, "the reloaded object does not duplicate the one that went away")
        #expect(registry.objects.map(\.object.id) == [9])
    }

    @Test func objectLoadedAndUnloadedWithinOneBatchNeverArrives() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(shop), .unloaded(shop.object), .loaded(sharedA))
        let update = registry.refresh()
        #expect(update.loadedObjects == [sharedA.object] && update.unloadedObjects.isEmpty && update.removed.isEmpty)
        #expect(Set(registry.records) == Set(sharedA.records))
    }

    @Test func unloadOfAnUnknownObjectIsIgnored() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.unloaded(shop.object))
        #expect(registry.refresh().isEmpty)
    }

    @Test func objectDiagnosticsAreKeptAndReported() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        source.enqueue(.loaded(broken))
        let update = registry.refresh()
        #expect(update.diagnostics.map(\.kind) == [.unknownVersion("beehive:9")])
        #expect(update.diagnostics.first?.objectPath == "/app/lib/libBroken.so")
        #expect(registry.records.map(\.text) == ["beehive:1|module|Broken.Good"])
        source.enqueue(.unloaded(broken.object))
        registry.refresh()
        #expect(registry.diagnostics.map(\.kind) == [.unknownVersion("beehive:9")], "diagnostics are a history")
    }

    /// The history keeps the newest diagnostics up to its limit; a reader's cursor sees what it missed.
    @Test func diagnosticsAreBoundedAndReadByCursor() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source, diagnosticLimit: 2)
        var cursor = 0
        for round in 0..<5 {
            source.enqueue(.loaded(broken))
            registry.refresh()
            source.enqueue(.unloaded(broken.object))
            registry.refresh()
            if round == 0 {
                let read = registry.diagnostics(from: cursor)
                #expect(read.diagnostics.map(\.kind) == [.unknownVersion("beehive:9")] && read.missed == 0)
                cursor = read.next
            }
        }
        #expect(registry.diagnostics.count == 2)
        #expect(registry.droppedDiagnostics == 3)
        let read = registry.diagnostics(from: cursor)
        #expect(read.diagnostics.count == 2)
        #expect(read.missed == 2)
        #expect(read.next == 5)
        #expect(registry.diagnostics(from: read.next).diagnostics.isEmpty)
    }

    @Test func concurrentRefreshesAndReadsSeeWholeObjects() async {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        let objects = (0..<200).map { index in
            object(UInt64(index + 1), "/app/lib/lib\(index).so", ["beehive:1|module|M\(index).Module", "beehive:1|route|/r\(index)|M\(index).H"])
        }
        for object in objects { source.enqueue(.loaded(object)) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        registry.refresh()
                        #expect(registry.records.count % 2 == 0)
                    }
                }
            }
        }
        #expect(registry.records.count == 400)
        #expect(registry.diagnostics.isEmpty)
    }

    @Test func retiredObjectsLeaveAndComeBackWhenReinstated() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        let plugin = object(7, "/app/plugins/libReviews.so", ["beehive:1|module|Reviews.ReviewsModule", "beehive:1|route|/reviews|Reviews.H"])
        source.enqueue(.loaded(shop), .loaded(plugin))
        registry.refresh()

        let retired = registry.retireObjects(atPath: "/app/plugins/libReviews.so")
        #expect(retired.unloadedObjects == [plugin.object])
        #expect(Set(retired.removed) == Set(plugin.records))
        #expect(Set(registry.records) == Set(shop.records))
        #expect(registry.retireObjects(atPath: "/app/plugins/libReviews.so").isEmpty)

        let reinstated = registry.reinstateObjects(atPath: "/app/plugins/libReviews.so")
        #expect(reinstated.loadedObjects == [plugin.object])
        #expect(Set(reinstated.added) == Set(plugin.records))
        #expect(Set(registry.records) == Set(Array(shop.records) + plugin.records))
        #expect(registry.reinstateObjects(atPath: "/app/plugins/libReviews.so").isEmpty)
    }

    @Test func anObjectTheLoaderReallyUnmappedIsNotReinstated() {
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        let plugin = object(7, "/app/plugins/libC.so", ["beehive:1|module|C.CModule"])
        source.enqueue(.loaded(plugin))
        registry.refresh()
        registry.retireObjects(atPath: "/app/plugins/libC.so")
        source.enqueue(.unloaded(plugin.object))
        #expect(registry.refresh().removed.isEmpty)
        #expect(registry.reinstateObjects(atPath: "/app/plugins/libC.so").isEmpty)
        #expect(registry.records.isEmpty)
    }
}

/// The registry against a plain model over seeded random batches of loads, unloads, retirements and
/// reinstatements: after each step it holds the records the model holds, in the one order, and each batch's
/// duplicates name the object the model names. The registry bisects its ordered records to find an earlier
/// declaration; the model scans every object. `BEEHIVE_TEST_SEED=<seed>` replays a run.
@Suite struct AnnotationRegistryModelTests {
    /// The objects loaded and retired, by id.
    struct Model {
        var loaded: [UInt64: ObjectAnnotations] = [:]
        var retired: [UInt64: ObjectAnnotations] = [:]

        var records: [AnnotationRecord] {
            loaded.values.flatMap(\.records).sorted(by: Self.precedes)
        }

        static func precedes(_ lhs: AnnotationRecord, _ rhs: AnnotationRecord) -> Bool {
            if lhs.identity != rhs.identity { return lhs.identity < rhs.identity }
            if lhs.origin.objectPath != rhs.origin.objectPath { return lhs.origin.objectPath < rhs.origin.objectPath }
            return lhs.origin.offset < rhs.origin.offset
        }

        /// The duplicates a batch of arrivals reports, as "path|record -> first object": for each arriving
        /// record, the least path among the objects already loaded that declare the same thing, or else the
        /// path of the first arrival (in record order) that declares it, when that is another record.
        func duplicates(arriving arrivals: [ObjectAnnotations]) -> [String] {
            let arriving = arrivals.flatMap(\.records).sorted(by: Self.precedes)
            var found: [String] = []
            for (position, record) in arriving.enumerated() {
                let earlier = loaded.values.filter { $0.records.contains { $0.identity == record.identity } }.map(\.object.path).min()
                let firstArrival = arriving[..<position].first { $0.identity == record.identity }?.origin.objectPath
                if let first = earlier ?? firstArrival {
                    found.append("\(record.origin.objectPath)|\(record.text) -> \(first)")
                }
            }
            return found.sorted()
        }
    }

    static func duplicates(in diagnostics: [RegistryDiagnostic]) -> [String] {
        diagnostics.compactMap { diagnostic in
            firstObject(of: diagnostic).map { "\(diagnostic.objectPath ?? "")|\(diagnostic.record ?? "") -> \($0)" }
        }.sorted()
    }

    @Test func registryAgreesWithAPlainModelOverRandomBatches() {
        let seed = getenv("BEEHIVE_TEST_SEED").flatMap { UInt64(String(cString: $0)) } ?? UInt64.random(in: 0...UInt64.max)
        print("registryAgreesWithAPlainModelOverRandomBatches: seed \(seed) (replay with BEEHIVE_TEST_SEED=\(seed))")
        var random = Xorshift(seed: seed)
        // Few names and paths, so that duplicates, shared paths and reloads are common; one name outside ASCII,
        // which the registry compares as a string rather than as bytes.
        let texts = [
            "beehive:1|module|M.A", "beehive:1|module|M.B", "beehive:1|module|M.Ü", "beehive:1|service|S.P|S.A",
            "beehive:1|service|S.P|S.B|scope=named|name=one", "beehive:1|service|S.Q|S.A", "beehive:1|route|/x|H.X",
            "beehive:1|route|/x|H.X|scheme=a", "beehive:1|route|/y/:id|H.Y", "beehive:1|target|T.One|T.Impl",
        ]
        let paths = ["/p/a.so", "/p/b.so", "/p/c.so", "/q/a.so", "/q/d.so"]
        let source = FakeAnnotationSource()
        let registry = AnnotationRegistry(source: source)
        var model = Model()
        // The app itself, which stays: many records beside those of the objects that come and go, so that a
        // few records arriving or leaving are put in and taken out by bisection, and the rest by a merge.
        let app = object(0, "/app/main", (0..<64).map { "beehive:1|module|App.M\($0)" } + ["beehive:1|route|/x|App.H"])
        source.enqueue(.loaded(app))
        registry.refresh()
        model.loaded[0] = app
        var nextID: UInt64 = 1
        for step in 0..<400 {
            let context = "seed \(seed), step \(step)"
            switch random.next(below: 5) {
            case 0:
                let path = paths[random.next(below: paths.count)]
                let update = registry.retireObjects(atPath: path)
                let leaving = model.loaded.filter { $0.value.object.path == path }
                for (id, object) in leaving {
                    model.loaded[id] = nil
                    model.retired[id] = object
                }
                #expect(Set(update.unloadedObjects) == Set(leaving.values.map(\.object)), "\(context)")
            case 1:
                let path = paths[random.next(below: paths.count)]
                registry.reinstateObjects(atPath: path)
                for (id, object) in model.retired where object.object.path == path {
                    model.retired[id] = nil
                    model.loaded[id] = object
                }
            default:
                var events: [ObjectEvent] = []
                let present = Array(model.loaded.values) + Array(model.retired.values)
                for object in present where object.object.id != 0 && random.next(below: 4) == 0 {
                    events.append(.unloaded(object.object))
                    model.loaded[object.object.id] = nil
                    model.retired[object.object.id] = nil
                }
                var arrivals: [ObjectAnnotations] = []
                for _ in 0..<random.next(below: 4) {
                    let records = (0..<random.next(below: 5)).map { _ in texts[random.next(below: texts.count)] }
                    arrivals.append(object(nextID, paths[random.next(below: paths.count)], records))
                    nextID += 1
                }
                events += arrivals.map { .loaded($0) }
                events.shuffle(using: &random)
                source.enqueue(contentsOf: events)
                let expected = model.duplicates(arriving: arrivals)
                for arrival in arrivals { model.loaded[arrival.object.id] = arrival }
                let update = registry.refresh()
                #expect(Self.duplicates(in: update.diagnostics) == expected, "\(context)")
            }
            #expect(registry.records.map(\.origin) == model.records.map(\.origin), "\(context)")
        }
    }
}

/// A seeded generator (xorshift64*), so that a failure can be replayed from its seed.
struct Xorshift: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
