import ArgumentParser
import BeeHiveLint
import Foundation

/// `beehive inspect FILE... [--json]`: the annotations of executables and shared libraries, read offline with
/// libelf (nothing is loaded or run). Exits non-zero only when a file cannot be read as ELF.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "List the BeeHive annotations stored in ELF files, without loading them.",
        discussion: """
            Prints one line per annotation record (file, section, byte offset, kind, record), then what is \
            wrong with any record or file, including records that declare the same thing twice in one file. \
            With --json, prints one JSON document; its fields are described in docs/registry.md and are always \
            present (null when there is no value). The exit status is non-zero only when a file cannot be read \
            as ELF.
            """
    )

    @Argument(help: "Executables, shared libraries or object files to read, or plugin folders (their shared objects).")
    var files: [String]

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let report = InspectionReport(files: files.flatMap(Self.pluginFiles(in:)))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.table, terminator: "")
        }
        if report.hasUnreadableFile { throw ExitCode.failure }
    }
}
