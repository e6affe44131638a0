import Benchmark

/// How far a run may drift from the p90 values stored in `Benchmarks/Thresholds` before
/// `swift package benchmark thresholds check` calls it a regression (exit code 2) or an improvement (exit code 4).
public enum Tolerances {
    /// Wall-clock p90 on the shared, loaded 2-core VM these thresholds were recorded on moves by half under
    /// ordinary load and up to threefold in a burst, so the band is 100%: twice as slow fails. On a dedicated
    /// runner, 25% is the right band.
    public static var wallClock: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 100]) }

    /// Allocation counts do not depend on load: any change is a change in the code.
    public static var allocations: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p90: 0]) }

    /// For benchmarks that allocate a number that depends on input sizes: a 5% band.
    public static var allocationsScaling: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 5]) }

    /// The number of loaded objects is context for the reader, not something to check.
    public static var context: BenchmarkThresholds { .none }

    /// The loaded-objects metric, recorded once per run by the discovery benchmarks.
    public static var loadedObjects: BenchmarkMetric { .custom("loaded objects", useScalingFactor: false) }

    /// The configuration every benchmark but process start-up uses: wall clock and allocations, with the
    /// tolerances above (allocations exact, or within 5% when they grow with the benchmark's input).
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(1),
        allocationsGrowWithInput: Bool = false, extraMetrics: [BenchmarkMetric] = []
    ) -> Benchmark.Configuration {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .wallClock: wallClock,
            .mallocCountTotal: allocationsGrowWithInput ? allocationsScaling : allocations,
        ]
        for metric in extraMetrics { thresholds[metric] = context }
        return Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal] + extraMetrics,
            // Nanoseconds everywhere: exported values are integers in the display unit, so coarser units lose digits.
            timeUnits: .nanoseconds,
            warmupIterations: 3,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: 100_000,
            thresholds: thresholds
        )
    }
}
