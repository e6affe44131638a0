import ArgumentParser

@main
struct BeeHiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beehive",
        abstract: "Inspect and check BeeHive annotations in ELF executables and shared libraries.",
        subcommands: [InspectCommand.self, LintCommand.self, IndexCommand.self]
    )
}
