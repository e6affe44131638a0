@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveServices
import Foundation

// Reads one configuration file the way an app does, for ConfigurationMemoryTests: `BeeHiveConfigProbe
// modules|services FILE` prints what happened, then the process's peak resident memory. The peak is VmHWM,
// the high-water mark of this program's own address space: `ru_maxrss` would also count the parent's, which
// the process had until it executed this program.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: BeeHiveConfigProbe modules|services FILE\n".utf8))
    exit(2)
}
do {
    switch arguments[1] {
    case "modules": try ModuleManager().registerModules(fromConfigurationFileAt: arguments[2])
    case "services": try ServiceManager().registerServices(fromFileAt: arguments[2])
    default:
        FileHandle.standardError.write(Data("unknown kind '\(arguments[1])'\n".utf8))
        exit(2)
    }
    print("registered")
} catch {
    print("refused: \(String(describing: error).prefix(300).replacingOccurrences(of: "\n", with: " "))")
}
let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
guard let peak = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else {
    FileHandle.standardError.write(Data("no VmHWM in /proc/self/status\n".utf8))
    exit(1)
}
print(peak)
