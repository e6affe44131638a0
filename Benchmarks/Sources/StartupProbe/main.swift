// The stand-in for the demo in the start-up benchmark: a process that starts a BeeHive app with discovery on
// (or off, with BEEHIVE_DISCOVERY=0) and exits. With --report it prints the time of each phase of its start.
import BeeHive
@_spi(Benchmarks) import BeeHiveRegistry
import Foundation

let (problem, phases) = await Probe.run()
if let problem {
    FileHandle.standardError.write(Data("StartupProbe: \(problem)\n".utf8))
    exit(1)
}
if CommandLine.arguments.contains("--report") {
    print("discovery \(SectionReader.isDiscoveryEnabled ? "on" : "off")")
    print("  \(SectionReader.constructorNanoseconds / 1000) µs: discovery before main (the C constructor)")
    for phase in phases { print("  \(phase.nanoseconds / 1000) µs: \(phase.name)") }
}
