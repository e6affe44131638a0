import BenchSupport
import Benchmark
import BeeHive
@_spi(Benchmarks) import BeeHiveRegistry
import CSectionShim

/// How discovery grows with the number of records in one object (10 to 100,000) and with the number of
/// loaded objects (1 to 200 extra objects, plain or annotated). Nothing in this executable is annotated:
/// each benchmark runs in its own process and loads its generated objects in `setup`.
let benchmarks: @Sendable () -> Void = {
    let configuration = Tolerances.configuration(
        maxDuration: .seconds(1), allocationsGrowWithInput: true, extraMetrics: [Tolerances.loadedObjects])

    func register(_ group: String, _ size: Int, expectedRecords: Int, load: @escaping () -> Void) {
        Benchmark("\(group).note-walk-read-C@\(size)", configuration: configuration) { benchmark in
            benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
            for _ in benchmark.scaledIterations {
                let snapshot = bh_snapshot_read_loaded_objects()
                blackHole(snapshot?.pointee.count)
                bh_snapshot_free(snapshot)
            }
        } setup: {
            load()
        }
        Benchmark("\(group).note-walk-parse-Swift@\(size)", configuration: configuration) {
            benchmark in
            benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
            for _ in benchmark.scaledIterations {
                blackHole(SectionReader.scanLoadedObjects())
            }
        } setup: {
            load()
            let records = SectionReader.scanLoadedObjects().reduce(0) { $0 + $1.records.count }
            precondition(records == expectedRecords, "expected \(expectedRecords) records, found \(records)")
        }
        Benchmark("\(group).libelf-open-all-copy@\(size)", configuration: configuration) {
            benchmark in
            benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
            for _ in benchmark.scaledIterations {
                blackHole(LoadedObjects.readEveryObjectWithLibelf())
            }
        } setup: {
            load()
        }
    }

    for count in [10, 100, 1_000, 10_000, 100_000] {
        register("Records", count, expectedRecords: count) {
            Fixtures.load([Fixtures.recordsLibrary(count: count)])
        }
    }
    // 20 against 1: what each annotated object beyond the first costs (issue 11).
    for count in [1, 10, 20, 50, 100, 200] {
        register("PlainObjects", count, expectedRecords: 0) {
            Fixtures.load(Fixtures.plainLibraries(count: count))
        }
        register("AnnotatedObjects", count, expectedRecords: 10 * count) {
            Fixtures.load(Fixtures.annotatedLibraries(count: count, recordsEach: 10))
        }
    }
}
