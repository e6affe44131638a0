import BeeHive
import FuzzerDriver
import Foundation
#if canImport(Glibc)
import Glibc
#endif

exit(beehive_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))

/// One input, read as a module list and as a service list in both formats. A bad file must give a typed error
/// that names it; nothing may crash, hang or grow without bound.
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    let modules = ModuleManager()
    do {
        try modules.registerModules(fromConfiguration: bytes, path: "fuzz.json")
    } catch {
        if !"\(error)".contains("fuzz.json") { fatalError("module list error does not name the file: \(error)") }
    }
    for format in ServiceConfigurationFormat.allCases {
        let services = ServiceManager()
        do {
            try services.registerServices(from: bytes, format: format, source: "fuzz.\(format.rawValue)")
            _ = services.validate()
        } catch {
            if !error.description.contains("fuzz.\(format.rawValue)") {
                fatalError("service list error does not name the file: \(error)")
            }
        }
    }
    return 0
}
