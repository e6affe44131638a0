import ArgumentParser

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lint")
}
