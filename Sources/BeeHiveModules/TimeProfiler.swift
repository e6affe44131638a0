import BeeHiveLocks
import Foundation

/// The time each module spends in each event, asynchronous inits included (BeeHive's `BHTimeProfiler`).
///
/// A dispatch stamps the clock once per module into one buffer and hands the whole buffer over at the end,
/// so profiling takes one lock per dispatch. A disabled profiler is never called.
public final class TimeProfiler: Sendable {
    public let isEnabled: Bool
    /// Samples beyond this are counted in `droppedSamples` instead of kept, so a long-running process
    /// that leaves profiling on does not grow without bound.
    package let maximumSamples: Int

    private struct State {
        var samples: [ProfileSample] = []
        var dropped = 0
    }

    private let origin = MonotonicClock.now()
    private let state = Locked(State())

    package init(isEnabled: Bool, maximumSamples: Int = 100_000) {
        self.isEnabled = isEnabled
        self.maximumSamples = maximumSamples
    }

    public var samples: [ProfileSample] {
        state.withLock { $0.samples }
    }

    package var droppedSamples: Int {
        state.withLock { $0.dropped }
    }

    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Records the hooks of one dispatch: module `i` ran from `stamps[i]` to `stamps[i + 1]`.
    func record(_ event: ModuleEvent, names: [String], stamps: [UInt64], count: Int, thread: Int) {
        guard count > 0 else { return }
        state.withLock { state in
            let room = max(0, maximumSamples - state.samples.count)
            let kept = min(room, count)
            state.dropped += count - kept
            state.samples.reserveCapacity(state.samples.count + kept)
            for index in 0..<kept {
                state.samples.append(sample(names[index], event, from: stamps[index], to: stamps[index + 1], thread))
            }
        }
    }

    func record(_ event: ModuleEvent, module: String, from start: UInt64, to end: UInt64, thread: Int) {
        state.withLock { state in
            guard state.samples.count < maximumSamples else {
                state.dropped += 1
                return
            }
            state.samples.append(sample(module, event, from: start, to: end, thread))
        }
    }

    private func sample(_ module: String, _ event: ModuleEvent, from start: UInt64, to end: UInt64, _ thread: Int)
        -> ProfileSample
    {
        ProfileSample(
            module: module, event: event, start: .nanoseconds(Int64(start &- origin)),
            duration: .nanoseconds(Int64(end &- start)), thread: thread)
    }

    /// One row per module and event, in the order they first ran: calls, total and longest time.
    public func table() -> String {
        struct Row {
            let module: String
            let event: ModuleEvent
            var calls = 0
            var total: Duration = .zero
            var longest: Duration = .zero
        }
        var rows: [Row] = []
        var rowIndex: [String: Int] = [:]
        for sample in samples.sorted(by: { $0.start < $1.start }) {
            let key = "\(sample.module)\u{0}\(sample.event)"
            let index = rowIndex[key] ?? {
                rows.append(Row(module: sample.module, event: sample.event))
                rowIndex[key] = rows.count - 1
                return rows.count - 1
            }()
            rows[index].calls += 1
            rows[index].total += sample.duration
            rows[index].longest = max(rows[index].longest, sample.duration)
        }
        let header = ["Module", "Event", "Calls", "Total ms", "Max ms"]
        let body = rows.map { row in
            [row.module, row.event.description, String(row.calls), Self.milliseconds(row.total), Self.milliseconds(row.longest)]
        }
        let widths = header.indices.map { column in
            ([header] + body).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += body.map(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The samples as Chrome trace JSON (`{"traceEvents": [...]}`), which Perfetto and chrome://tracing open.
    public func chromeTrace() throws -> Data {
        let processID = Int(ProcessInfo.processInfo.processIdentifier)
        var events = [
            TraceEvent(
                name: "process_name", category: nil, phase: "M", timestamp: nil, duration: nil, processID: processID,
                threadID: 0, arguments: ["name": "BeeHive modules"])
        ]
        for sample in samples {
            events.append(
                TraceEvent(
                    name: sample.module, category: sample.event.description, phase: "X",
                    timestamp: Self.microseconds(sample.start), duration: Self.microseconds(sample.duration),
                    processID: processID, threadID: sample.thread,
                    arguments: ["module": sample.module, "event": sample.event.description]))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(TraceFile(traceEvents: events))
    }

    /// Writes `chromeTrace()` to a file.
    public func writeChromeTrace(toPath path: String) throws {
        try chromeTrace().write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.3f", microseconds(duration) / 1000)
    }

    private static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}

private struct TraceFile: Encodable {
    let traceEvents: [TraceEvent]
    let displayTimeUnit = "ms"
}

private struct TraceEvent: Encodable {
    let name: String
    let category: String?
    let phase: String
    let timestamp: Double?
    let duration: Double?
    let processID: Int
    let threadID: Int
    let arguments: [String: String]

    enum CodingKeys: String, CodingKey {
        case name, category = "cat", phase = "ph", timestamp = "ts", duration = "dur", processID = "pid"
        case threadID = "tid", arguments = "args"
    }
}
