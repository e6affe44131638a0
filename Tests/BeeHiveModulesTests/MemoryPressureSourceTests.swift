@_spi(BeeHiveInternals) import BeeHiveModules
import Foundation
import Testing

@Suite struct MemoryPressureSourceTests {
    /// A fake /proc and /sys/fs/cgroup: the process in cgroup /app.slice/shop.service.
    private func fakeSystem(events: String?, cgroupPressure: String? = nil, systemPressure: String? = nil, cgroupV2: Bool = true)
        throws -> (proc: String, cgroup: String)
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("beehive-memory-\(UUID().uuidString)").path
        let proc = root + "/proc"
        let cgroup = root + "/cgroup"
        let group = cgroup + "/app.slice/shop.service"
        for directory in [proc + "/self", proc + "/pressure", group] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let membership = cgroupV2 ? "0::/app.slice/shop.service\n" : "4:memory:/app.slice/shop.service\n"
        try membership.write(toFile: proc + "/self/cgroup", atomically: true, encoding: .utf8)
        if let events { try events.write(toFile: group + "/memory.events", atomically: true, encoding: .utf8) }
        if let cgroupPressure { try cgroupPressure.write(toFile: group + "/memory.pressure", atomically: true, encoding: .utf8) }
        if let systemPressure { try systemPressure.write(toFile: proc + "/pressure/memory", atomically: true, encoding: .utf8) }
        return (proc, cgroup)
    }

    private func events(high: Int, max: Int = 0, oom: Int = 0) -> String {
        "low 0\nhigh \(high)\nmax \(max)\noom \(oom)\noom_kill 0\n"
    }

    private func pressure(some: Double) -> String {
        "some avg10=\(some) avg60=0.00 avg300=0.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    }

    @Test func cgroupV2IsFound() throws {
        let system = try fakeSystem(events: events(high: 0), cgroupPressure: pressure(some: 0))
        let availability = MemoryPressureSource.probe(procRoot: system.proc, cgroupRoot: system.cgroup)
        #expect(availability == .available(
            eventsFile: system.cgroup + "/app.slice/shop.service/memory.events",
            pressureFile: system.cgroup + "/app.slice/shop.service/memory.pressure"))
    }

    @Test func unavailableSaysWhy() throws {
        let system = try fakeSystem(events: nil, cgroupV2: false)
        let availability = MemoryPressureSource.probe(procRoot: system.proc, cgroupRoot: system.cgroup)
        guard case .unavailable(let reason) = availability else {
            Issue.record("expected unavailable, got \(availability)")
            return
        }
        #expect(reason.contains("no cgroup v2"))
        #expect(reason.contains("pressure/memory is missing"))
        let (manager, _) = makeManager()
        let source = MemoryPressureSource(manager: manager, availability: availability)
        #expect { try source.start() } throws: { error in
            guard case ModuleError.memoryPressureUnavailable = error else { return false }
            return "\(error)".contains("memory pressure cannot be watched")
        }
        #expect(source.poll() == nil)
    }

    @Test func systemWidePressureIsTheFallback() throws {
        let system = try fakeSystem(events: nil, systemPressure: pressure(some: 0))
        let availability = MemoryPressureSource.probe(procRoot: system.proc, cgroupRoot: system.cgroup)
        #expect(availability == .available(eventsFile: nil, pressureFile: system.proc + "/pressure/memory"))
    }

    @Test func risingCountersDeliverAMemoryWarning() async throws {
        let system = try fakeSystem(events: events(high: 4))
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        let source = MemoryPressureSource(
            manager: manager, availability: MemoryPressureSource.probe(procRoot: system.proc, cgroupRoot: system.cgroup))
        // Pressure from before the source existed is not news.
        #expect(source.poll() == nil)
        try events(high: 6, oom: 1).write(toFile: system.cgroup + "/app.slice/shop.service/memory.events", atomically: true, encoding: .utf8)
        let reading = try #require(source.poll())
        #expect(reading.eventIncreases == ["high": 2, "oom": 1])
        #expect(recorder.modules(receiving: .didReceiveMemoryWarning) == ["AlphaModule"])
        #expect(source.poll() == nil)
    }

    @Test func stallCrossingTheThresholdDeliversOnce() throws {
        let system = try fakeSystem(events: nil, cgroupPressure: pressure(some: 1))
        let file = system.cgroup + "/app.slice/shop.service/memory.pressure"
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        let source = MemoryPressureSource(
            manager: manager, availability: .available(eventsFile: nil, pressureFile: file), stallThreshold: 10)
        try pressure(some: 25.5).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(source.poll()?.stallPercentage == 25.5)
        #expect(source.poll() == nil)
        try pressure(some: 2).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(source.poll() == nil)
        try pressure(some: 30).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(source.poll() != nil)
        #expect(recorder.modules(receiving: .didReceiveMemoryWarning) == ["AlphaModule", "AlphaModule"])
    }

    @Test func timerPollsOnItsOwn() async throws {
        let system = try fakeSystem(events: events(high: 0))
        let (manager, recorder) = makeManager()
        try manager.register(AlphaModule.self)
        try manager.start()
        let source = MemoryPressureSource(
            manager: manager, availability: MemoryPressureSource.probe(procRoot: system.proc, cgroupRoot: system.cgroup),
            interval: .milliseconds(10))
        try source.start()
        defer { source.cancel() }
        try events(high: 1).write(toFile: system.cgroup + "/app.slice/shop.service/memory.events", atomically: true, encoding: .utf8)
        #expect(await eventually { recorder.all.contains("AlphaModule.didReceiveMemoryWarning") })
    }

    @Test func thisMachineIsProbedWithoutCrashing() {
        let availability = MemoryPressureSource.probe()
        #expect(!availability.description.isEmpty)
    }
}
