import BeeHiveLocks
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Delivers `didReceiveMemoryWarning` when the kernel reports memory pressure on the process.
///
/// Two inputs, whichever exist: the process's cgroup v2 `memory.events` (a warning when `high`, `max`,
/// `oom` or `oom_kill` rises) and PSI, the cgroup's `memory.pressure` or else the system-wide
/// `/proc/pressure/memory` (a warning when `some avg10` crosses the threshold upwards). Neither exists
/// under cgroup v1 without PSI; `availability` says so and `start()` refuses with the reason.
public final class MemoryPressureSource: Sendable {
    public enum Availability: Sendable, Hashable, CustomStringConvertible {
        case available(eventsFile: String?, pressureFile: String?)
        case unavailable(reason: String)

        public var description: String {
            switch self {
            case .available(let events, let pressure):
                "memory pressure from " + [events, pressure].compactMap { $0 }.joined(separator: " and ")
            case .unavailable(let reason): "memory pressure unavailable: \(reason)"
            }
        }
    }

    public let availability: Availability
    public let interval: Duration
    /// The PSI `some avg10` percentage that counts as pressure.
    public let stallThreshold: Double

    private struct State {
        var counters: [String: Int] = [:]
        var wasStalling = false
        var timer: (any DispatchSourceTimer)?
    }

    private static let watchedCounters: Set<String> = ["high", "max", "oom", "oom_kill"]

    private let manager: ModuleManager
    private let logger: Logger
    private let state = Locked(State())

    /// Reads the current counters as the baseline: pressure from before this point is not reported.
    public init(
        manager: ModuleManager,
        availability: Availability = MemoryPressureSource.probe(),
        interval: Duration = .seconds(1),
        stallThreshold: Double = 10,
        logger: Logger = Logger(label: "beehive.modules.memory", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.manager = manager
        self.availability = availability
        self.interval = interval
        self.stallThreshold = stallThreshold
        self.logger = logger
        _ = poll(deliver: false)
    }

    deinit {
        cancel()
    }

    /// Finds the inputs of this process: its cgroup from `<procRoot>/self/cgroup`, that cgroup's files
    /// under `cgroupRoot`, and `<procRoot>/pressure/memory`.
    public static func probe(procRoot: String = "/proc", cgroupRoot: String = "/sys/fs/cgroup") -> Availability {
        var reasons: [String] = []
        var eventsFile: String?
        var pressureFile: String?
        let membership = readFile("\(procRoot)/self/cgroup")
        let unifiedPath = membership?.split(separator: "\n").first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
        if let unifiedPath {
            let directory = cgroupRoot + (unifiedPath == "/" ? "" : unifiedPath)
            if readFile("\(directory)/memory.events") != nil {
                eventsFile = "\(directory)/memory.events"
            } else {
                reasons.append("\(directory)/memory.events is missing (no cgroup v2 memory controller for this process)")
            }
            if readFile("\(directory)/memory.pressure") != nil { pressureFile = "\(directory)/memory.pressure" }
        } else {
            reasons.append("\(procRoot)/self/cgroup has no cgroup v2 ('0::') entry")
        }
        if pressureFile == nil {
            if readFile("\(procRoot)/pressure/memory") != nil {
                pressureFile = "\(procRoot)/pressure/memory"
            } else {
                reasons.append("\(procRoot)/pressure/memory is missing (kernel without PSI, or booted with psi=0)")
            }
        }
        if eventsFile == nil && pressureFile == nil {
            return .unavailable(reason: reasons.joined(separator: "; "))
        }
        return .available(eventsFile: eventsFile, pressureFile: pressureFile)
    }

    /// Polls every `interval` on a background queue.
    /// - Throws: `.memoryPressureUnavailable` with the reason when there is nothing to watch.
    public func start() throws(ModuleError) {
        if case .unavailable(let reason) = availability {
            logger.warning("memory pressure unavailable: \(reason)")
            throw .memoryPressureUnavailable(reason: reason)
        }
        state.withLock { state in
            guard state.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "beehive.modules.memory"))
            let nanoseconds = Int(interval.nanoseconds)
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [weak self] in _ = self?.poll() }
            timer.resume()
            state.timer = timer
        }
        logger.debug("\(availability)")
    }

    public func cancel() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// Reads the inputs now and delivers `didReceiveMemoryWarning` if pressure rose since the last poll.
    /// - Returns: What was delivered, or nil.
    @discardableResult
    public func poll() -> MemoryPressure? {
        poll(deliver: true)
    }

    private func poll(deliver: Bool) -> MemoryPressure? {
        guard case .available(let eventsFile, let pressureFile) = availability else { return nil }
        let counters = eventsFile.flatMap(Self.readFile).map(Self.counters) ?? [:]
        let stall = pressureFile.flatMap(Self.readFile).flatMap(Self.someAverage10)
        let pressure = state.withLock { state -> MemoryPressure? in
            var increases: [String: Int] = [:]
            for (name, value) in counters where value > state.counters[name, default: 0] {
                increases[name] = value - state.counters[name, default: 0]
            }
            state.counters.merge(counters) { _, new in new }
            let stalling = stall.map { $0 >= stallThreshold } ?? false
            let crossed = stalling && !state.wasStalling
            state.wasStalling = stalling
            guard !increases.isEmpty || crossed else { return nil }
            return MemoryPressure(eventIncreases: increases, stallPercentage: crossed ? stall : nil)
        }
        guard deliver, let pressure else { return nil }
        logger.warning("memory pressure: \(pressure)")
        do {
            try manager.trigger(.didReceiveMemoryWarning, customParameter: pressure)
        } catch {
            logger.error("didReceiveMemoryWarning failed: \(error)")
        }
        return pressure
    }

    /// `memory.events` lines such as `high 3`, for the counters that mean pressure.
    private static func counters(_ text: String) -> [String: Int] {
        var counters: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, watchedCounters.contains(String(fields[0])), let value = Int(fields[1]) else { continue }
            counters[String(fields[0])] = value
        }
        return counters
    }

    /// `avg10` of the `some` line of a PSI file.
    private static func someAverage10(_ text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("some ") }) else { return nil }
        let field = line.split(separator: " ").first { $0.hasPrefix("avg10=") }
        return field.flatMap { Double($0.dropFirst("avg10=".count)) }
    }

    /// Reads to the end: /proc and /sys files report a size of 0.
    static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[0..<count]
        }
    }
}
