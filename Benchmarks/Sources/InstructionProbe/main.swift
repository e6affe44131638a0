@_spi(Benchmarks) import BeeHiveRegistry
import BeeHiveRouter
import BenchWorkloads
import CBenchAnnotations

/// Runs one hot path a given number of times, for `scripts/count-instructions`: it runs the probe under callgrind
/// at two counts and divides the difference, which gives instructions per call whatever else the shared machine
/// is doing, where timings move by half from one minute to the next.
///
///     InstructionProbe route ROUTES CALLS   route() of a URL with one variable and one query item (issue 14)
///     InstructionProbe static ROUTES CALLS  route() of a path without variables or query (issue 14)
///     InstructionProbe discovery SCANS      discovery of this executable's 1,000 records (issue 11)
let arguments = Array(CommandLine.arguments.dropFirst())
func count(_ index: Int) -> Int {
    guard index < arguments.count, let value = Int(arguments[index]), value >= 0 else {
        fatalError("usage: InstructionProbe route|static ROUTES CALLS | discovery SCANS")
    }
    return value
}

switch arguments.first {
case "route", "static":
    let set = RouteSet(routes: count(1))
    let router = Router()
    for pattern in set.patterns { _ = try router.addRoute(pattern) }
    let urls = arguments[0] == "route" ? set.variableQueryURLs : set.lookups.filter { $0.route % 3 == 1 }.map(\.path)
    var handled = 0
    for call in 0..<count(2) {
        if try router.route(urls[call % urls.count]).isHandled { handled += 1 }
    }
    precondition(handled == count(2), "every URL is handled")
case "discovery":
    precondition(bench_annotations_count() == 1000)
    var records = 0
    for _ in 0..<count(1) {
        for object in SectionReader.scanLoadedObjects() { records += object.records.count }
    }
    precondition(records == 1000 * count(1), "1,000 records per scan")
default:
    fatalError("usage: InstructionProbe route|static ROUTES CALLS | discovery SCANS")
}
