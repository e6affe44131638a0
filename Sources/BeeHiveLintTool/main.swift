import BeeHiveLint

#if canImport(Glibc)
import Glibc
#endif

// The tool the `beehive-lint` command plugin runs: `BeeHiveLintTool FILE...` lints the files as a set, like
// `beehive lint FILE...`. A separate target because SwiftPM cannot give a plugin an executable target that a
// product already builds (swiftlang/swift-package-manager#8831).
let files = Array(CommandLine.arguments.dropFirst())
guard !files.isEmpty else {
    print("usage: BeeHiveLintTool FILE...")
    exit(64)
}
let report = Linter.lint(files: files)
print(report)
exit(report.passed ? 0 : 1)
