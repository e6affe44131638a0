import ArgumentParser
import BeeHiveLint

/// `beehive lint FILE...`: checks the annotations of built binaries, for CI.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check the BeeHive annotations of ELF executables and shared libraries before they run.",
        discussion: """
            The files are checked together: a record may name a type that another of the files defines, so pass \
            an executable with the libraries it links. Each problem is printed on one line naming the file, the \
            section and the record; the exit status is 1 if there is any, 64 for a usage error.

            With --inputs, also checks that the linker kept every record: `beehive lint app --inputs main.o \
            libshop.a` reports each record of those inputs that is not in the linked files, naming the object or \
            archive member and the likely cause (a member never pulled, a section collected by --gc-sections).
            """
    )

    @Argument(help: "Executables and shared libraries to check.")
    var files: [String]

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Object files and static archives given to the linker: each of their records must be in one of the files.",
            valueName: "object-or-archive"))
    var inputs: [String] = []

    @Flag(name: .shortAndLong, help: "Print nothing when every check passes.")
    var quiet = false

    func run() throws {
        let report = Linter.lint(files: files, inputs: inputs)
        if !report.passed || !quiet { print(report) }
        if !report.passed { throw ExitCode.failure }
    }
}
