import Benchmark

/// How far a run may drift from the p90 values stored in `Benchmarks/Thresholds` before
/// `swift package benchmark thresholds check` calls it a regression (exit code 2) or an improvement (exit code 4).
public enum Tolerances {
    /// Wall-clock p90 moves by a third between runs on a shared, loaded 2-core VM; a 50% band catches a real
    /// regression without failing on load alone.
    public static var wallClock: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 50]) }

    /// Allocation counts do not depend on load: any change is a change in the code.
    public static var allocations: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 5], absolute: [.p90: 0]) }

    /// For benchmarks that allocate a number that depends on input sizes: a 5% band.
    public static var allocationsScaling: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 5]) }

    /// The number of loaded objects is context for the reader, not something to check.
    public static var context: BenchmarkThresholds { .none }

    /// The loaded-objects metric, recorded once per run by the discovery benchmarks.
    public static var loadedObjects: BenchmarkMetric { .custom("loaded objects", useScalingFactor: false) }

    /// Configuration for benchmarks whose allocation count is fixed (zero, or the same for every operation).
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(1),
        allocationsScale: Bool = false, extraMetrics: [BenchmarkMetric] = []
    ) -> Benchmark.Configuration {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .wallClock: wallClock,
            .mallocCountTotal: allocationsScale ? allocationsScaling : allocations,
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
