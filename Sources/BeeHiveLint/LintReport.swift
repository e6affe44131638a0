/// What linting a set of binaries found.
public struct LintReport: Sendable, Hashable, CustomStringConvertible {
    /// The linted files, in the order given.
    public let files: [String]
    /// How many annotation records the files hold.
    public let recordCount: Int
    /// In file order, then section and record order.
    public let findings: [LintFinding]

    public init(files: [String], recordCount: Int, findings: [LintFinding]) {
        self.files = files
        self.recordCount = recordCount
        self.findings = findings
    }

    public var passed: Bool { findings.isEmpty }

    /// One line per finding, then a summary line.
    public var description: String {
        let summary = "beehive lint: \(findings.count) error\(findings.count == 1 ? "" : "s") in \(recordCount) record\(recordCount == 1 ? "" : "s") of \(files.count) file\(files.count == 1 ? "" : "s")"
        return (findings.map(\.description) + [summary]).joined(separator: "\n")
    }
}
