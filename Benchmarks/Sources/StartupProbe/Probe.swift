import BeeHive
import CStartupAnnotations
#if canImport(Glibc)
import Glibc
#endif

/// What the stand-in app does between `main` and exit, and the checks that tell a real start from a broken one.
enum Probe {
    static let readyKey = ConfigKey<Bool>("probe.ready")

    /// Nanoseconds spent in each phase of `run()`, for `--report`.
    nonisolated(unsafe) static var phases: [(name: String, nanoseconds: UInt64)] = []

    /// Starts the app as the demo does (discovery, every manager fed, modules launched), uses a route and a
    /// service, and stops. Returns what went wrong, if anything: annotations must all arrive when discovery is
    /// on, and none when it is off.
    static func run() async -> String? {
        var clock = PhaseClock()
        let host = HiveHost()
        let hive = host.hive
        // HiveHost.start() refreshes too; refreshing first splits parsing and feeding the managers from launching.
        hive.refresh()
        clock.lap("records parsed, types resolved, managers fed")
        do {
            try await host.start()
        } catch {
            return "start failed: \(error)"
        }
        clock.lap("modules launched")
        let expected = SectionReader.isDiscoveryEnabled ? 6 : 0
        let started = hive.modules.modules.count
        let routed = (try? hive.open("/feed/42")).map { if case .handled = $0 { true } else { false } } ?? false
        let service = hive.services.createService(FeedService.self)
        clock.lap("a route and a service used")
        do {
            try host.stop()
        } catch {
            return "stop failed: \(error)"
        }
        clock.lap("modules stopped")
        phases = clock.laps
        if started != expected { return "\(started) modules started, expected \(expected)" }
        if SectionReader.isDiscoveryEnabled {
            guard startup_annotations_count() == 18, routed, service?.itemCount() == 3,
                hive.modules.config[readyKey] == true
            else { return "annotated routes, services or module hooks did not arrive" }
        }
        return nil
    }
}

/// Lap times on the monotonic clock.
struct PhaseClock {
    private(set) var laps: [(name: String, nanoseconds: UInt64)] = []
    private var last = Self.now()

    mutating func lap(_ name: String) {
        let now = Self.now()
        laps.append((name, now - last))
        last = now
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
