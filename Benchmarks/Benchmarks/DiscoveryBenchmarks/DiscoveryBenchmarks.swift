import BenchSupport
import Benchmark
import BeeHive
@_spi(Benchmarks) import BeeHiveRegistry
import CBenchAnnotations
import CBenchLibelf
import CSectionShim

/// Issue 2's setting: a Swift executable with its usual loaded objects (swiftCore, Foundation, ICU...), one of
/// them (this executable) annotated with 1,000 records. Ours against opening every loaded object with libelf.
let benchmarks: @Sendable () -> Void = {
    precondition(bench_annotations_count() == 1000)
    let configuration = Tolerances.configuration(extraMetrics: [Tolerances.loadedObjects])

    Benchmark("Discovery.note-walk-read-C", configuration: configuration) { benchmark in
        benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
        for _ in benchmark.scaledIterations {
            let snapshot = bh_snapshot_read_loaded_objects()
            blackHole(snapshot?.pointee.count)
            bh_snapshot_free(snapshot)
        }
    }
    Benchmark("Discovery.note-walk-parse-Swift", configuration: configuration) { benchmark in
        benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
        for _ in benchmark.scaledIterations {
            blackHole(SectionReader.scanLoadedObjects())
        }
    } setup: {
        let records = SectionReader.scanLoadedObjects().reduce(0) { $0 + $1.records.count }
        precondition(records == 1000, "expected 1,000 records, found \(records)")
    }
    Benchmark("Discovery.libelf-open-all", configuration: configuration) { benchmark in
        benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
        for _ in benchmark.scaledIterations {
            var sections = 0
            blackHole(bench_libelf_open_every_loaded_object(&sections))
        }
    }
    Benchmark("Discovery.libelf-open-all-copy", configuration: configuration) {
        benchmark in
        benchmark.measurement(Tolerances.loadedObjects, LoadedObjects.count)
        for _ in benchmark.scaledIterations {
            blackHole(LoadedObjects.readEveryObjectWithLibelf())
        }
    }
}
