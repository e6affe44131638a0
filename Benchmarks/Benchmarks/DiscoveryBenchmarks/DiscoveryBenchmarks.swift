import Benchmark
import BeeHive
import CBenchAnnotations
import CSectionShim

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    precondition(bench_annotations_count() == 1000)

    Benchmark("Discovery: note walk, annotated objects read (C)") { benchmark in
        for _ in benchmark.scaledIterations {
            let list = bh_scan_uncached()
            blackHole(list?.pointee.count)
            bh_event_list_free(list)
        }
    }
    Benchmark("Discovery: note walk, read, records parsed (Swift)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(SectionReader.scanLoadedObjects())
        }
    }
    Benchmark("Discovery: open every loaded object with libelf") { benchmark in
        for _ in benchmark.scaledIterations {
            var sections = 0
            blackHole(bh_open_every_loaded_object(&sections))
        }
    }
}
