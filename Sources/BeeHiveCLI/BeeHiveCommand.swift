import ArgumentParser

@main
struct BeeHiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beehive",
        abstract: "Inspect, check and draw the BeeHive annotations of ELF executables and shared libraries.",
        subcommands: [InspectCommand.self, LintCommand.self, GraphCommand.self, IndexCommand.self]
    )
}
