import Foundation
import Testing

/// The configuration readers' memory stays a small multiple of the file's size: each ~12.5 MB file (JSON and
/// XML property list, module and service layouts) is read by BeeHiveConfigProbe, a process of its own that
/// reports its peak resident memory. The bound is over the probe's peak for a one-entry file, so the runtime's
/// own pages do not count.
@Suite(.timeLimit(.minutes(10)))
struct ConfigurationMemoryTests {
    /// Peak memory beyond the one-entry baseline, per byte of file. Measured (Swift 6.3, x86_64): modules 4.4x
    /// (JSON) and 2.7x (XML plist): the file, the decoder's index of it and the entries; services 8.3x and
    /// 4.7x, since the probe keeps a registration for each of the 124,596 (JSON) entries, as an app does. A
    /// 12.5 MB module file used to peak at 657 MB, 52x.
    static func allowedMultiple(_ kind: Kind) -> Int { kind == .modules ? 6 : 10 }
    static let targetSize = 12_500_000

    enum Kind: String, CaseIterable { case modules, services }
    enum Format: String, CaseIterable { case json, plist }

    struct Run {
        let peakBytes: Int
        let result: String
    }

    /// Runs the probe, a process of its own, on a file; it prints what happened and its peak memory.
    static func run(_ kind: Kind, _ file: URL) throws -> Run {
        let bundle = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        let probe = bundle.deletingLastPathComponent().appending(path: "BeeHiveConfigProbe")
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            throw FixtureBuilder.Failure(description: "no BeeHiveConfigProbe next to \(bundle.path); run swift build first")
        }
        let output = try FixtureBuilder.run(probe, [kind.rawValue, file.path])
        let lines = output.standardOutput.split(separator: "\n")
        // "VmHWM:    12345 kB"
        guard output.status == 0, lines.count == 2, let kilobytes = lines[1].split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else {
            throw FixtureBuilder.Failure(description: "the probe failed (\(output.status)): \(output.output)")
        }
        return Run(peakBytes: kilobytes * 1024, result: String(lines[0]))
    }

    /// One entry of the layout; `index` keeps the names distinct.
    static func entry(_ kind: Kind, _ format: Format, _ index: Int) -> String {
        let id = String(index, radix: 10)
        switch (kind, format) {
        case (.modules, .json):
            return #"{"moduleClass":"Probe.Module\#(id)","moduleLevel":1,"modulePriority":"\#(index % 900)","moduleAsync":false}"#
        case (.modules, .plist):
            return "<dict><key>moduleClass</key><string>Probe.Module\(id)</string><key>moduleLevel</key><integer>1</integer>"
                + "<key>modulePriority</key><string>\(index % 900)</string><key>moduleAsync</key><false/></dict>\n"
        case (.services, .json):
            return #"{"service":"Probe.Service\#(id)","impl":"Probe.Implementation\#(id)","scope":"named","name":"n\#(id)"}"#
        case (.services, .plist):
            return "<dict><key>service</key><string>Probe.Service\(id)</string><key>impl</key><string>Probe.Implementation\(id)</string>"
                + "<key>scope</key><string>named</string><key>name</key><string>n\(id)</string></dict>\n"
        }
    }

    /// A file of the layout with entries up to about `size` bytes.
    static func write(_ kind: Kind, _ format: Format, size: Int, to file: URL) throws {
        var entries: [String] = []
        var total = 0
        repeat {
            let entry = entry(kind, format, entries.count)
            entries.append(entry)
            total += entry.utf8.count + (format == .json ? 1 : 0)
        } while total < size
        let text: String
        switch (kind, format) {
        case (.modules, .json): text = #"{"moduleClasses":["# + entries.joined(separator: ",") + "]}"
        case (.services, .json): text = "[" + entries.joined(separator: ",") + "]"
        case (.modules, .plist), (.services, .plist):
            let list = "<array>\n" + entries.joined() + "</array>"
            text = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
                + (kind == .modules ? "<dict><key>moduleClasses</key>\(list)</dict>" : list) + "</plist>"
        }
        try text.write(to: file, atomically: false, encoding: .utf8)
    }

    @Test(arguments: Kind.allCases, Format.allCases)
    func peakMemoryIsASmallMultipleOfTheFileSize(kind: Kind, format: Format) throws {
        let directory = try FixtureHost.temporaryDirectory("config-memory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = directory.appending(path: "small.\(format.rawValue)")
        let large = directory.appending(path: "large.\(format.rawValue)")
        try Self.write(kind, format, size: 1, to: small)
        try Self.write(kind, format, size: Self.targetSize, to: large)
        let size = try FileManager.default.attributesOfItem(atPath: large.path)[.size] as? Int ?? 0

        let baseline = try Self.run(kind, small)
        let measured = try Self.run(kind, large)
        // Both read the whole file: services register every entry; module names resolve to no type, so the
        // registration stops at the first one, after the whole file was decoded and checked.
        let expected = kind == .services ? "registered" : "refused: "
        #expect(baseline.result.hasPrefix(expected), "\(baseline.result)")
        #expect(measured.result.hasPrefix(expected), "\(measured.result)")
        let growth = measured.peakBytes - baseline.peakBytes
        print("\(kind) \(format): \(size) bytes, peak \(measured.peakBytes >> 20) MiB, baseline \(baseline.peakBytes >> 20) MiB, growth \(String(format: "%.2f", Double(growth) / Double(size))) x the file")
        #expect(size >= Self.targetSize)
        #expect(
            growth <= Self.allowedMultiple(kind) * size,
            "\(kind) \(format): \(size)-byte file peaked at \(measured.peakBytes >> 20) MiB, \(baseline.peakBytes >> 20) MiB for one entry")
    }
}
