@_spi(Benchmarks) import BeeHiveRegistry
import BeeHive
import BenchWorkloads
import CBenchAnnotations
import Dispatch

/// Runs one hot path a given number of times, for `scripts/count-instructions`: it runs the probe under callgrind
/// at two counts and divides the difference, which gives instructions per operation whatever else the shared
/// machine is doing, where timings move by half from one minute to the next. Set-up that does not grow with the
/// count cancels out.
///
///     InstructionProbe route ROUTES CALLS      route() of a URL with one variable and one query item
///     InstructionProbe static ROUTES CALLS     route() of a path without variables or query
///     InstructionProbe discovery SCANS         discovery of this executable's 1,000 records
///     InstructionProbe register-module COUNT   registering and unregistering COUNT module types (≤ 200)
///     InstructionProbe register-service COUNT  registering and unregistering COUNT service types (≤ 200)
///     InstructionProbe register-route COUNT    adding and removing COUNT routes, each a new handler type (≤ 200)
///     InstructionProbe cached-lookup CALLS     resolve() of a cached singleton
///     InstructionProbe launch TOTAL COUNT      start() and waitForLaunch() of COUNT asynchronous modules (≤ TOTAL)
///     InstructionProbe first-use FOLDER CACHE CALLS  first use of the service of FOLDER's first plugin, and its unload
///     InstructionProbe dlopen-one FOLDER CALLS  dlopen and dlclose of FOLDER's first plugin
///
/// The registration modes run the same closures as RegistrationBenchmarks (RegisteredTypes.swift is a link to
/// that target's file): each registers a type the process has not registered before, so what a first registration
/// costs counts.
let usage = """
    usage: InstructionProbe route|static ROUTES CALLS | discovery SCANS | register-module|register-service|\
    register-route COUNT | cached-lookup CALLS | launch TOTAL COUNT | first-use FOLDER CACHE CALLS | \
    dlopen-one FOLDER CALLS
    """

func count(_ index: Int) -> Int {
    let arguments = CommandLine.arguments.dropFirst()
    guard index < arguments.count, let value = Int(arguments[arguments.startIndex + index]), value >= 0 else {
        fatalError(usage)
    }
    return value
}

/// Registers TOTAL asynchronous modules, COUNT of them with the manager that is launched and the others with one
/// that never starts: both runs register as many modules (and instantiate as many types), so the difference
/// between two counts is the launch alone.
///
/// The main thread waits on a semaphore rather than with a top-level `await`: that one hands the main thread to
/// `dispatch_main`, which ends it with `pthread_exit`, and valgrind 3.19 crashes on that.
func runLaunch(total: Int, count: Int) {
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            try await launchModules(count, of: total)
        } catch {
            fatalError("the launch failed: \(error)")
        }
        done.signal()
    }
    done.wait()
}

func launchModules(_ count: Int, of total: Int) async throws {
    precondition(count <= total, "COUNT ≤ TOTAL")
    let launched = ModuleManager()
    let idle = ModuleManager()
    for index in 0..<total {
        try (index < count ? launched : idle).register(makeLaunchedModule(index))
    }
    try launched.start()
    try await launched.waitForLaunch()
    precondition(launched.diagnostics.isEmpty, "a module failed: \(launched.diagnostics)")
}

func registrations<Entry>(_ entries: [Entry], _ count: Int) -> ArraySlice<Entry> {
    precondition(count <= entries.count, "at most \(entries.count) registrations: one per generated type")
    return entries.prefix(count)
}

switch CommandLine.arguments.dropFirst().first {
case "route", "static":
    let set = RouteSet(routes: count(1))
    let router = Router()
    for pattern in set.patterns { _ = try router.addRoute(pattern) }
    let urls = CommandLine.arguments[1] == "route" ? set.variableQueryURLs : set.lookups.filter { $0.route % 3 == 1 }.map(\.path)
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
case "register-module":
    let manager = ModuleManager()
    for register in registrations(moduleRegistrations, count(1)) { try register(manager) }
case "register-service":
    let manager = ServiceManager()
    for register in registrations(serviceRegistrations, count(1)) { register(manager) }
case "register-route":
    let router = Router()
    for register in registrations(routeRegistrations, count(1)) { try register(router) }
case "cached-lookup":
    let manager = ServiceManager()
    manager.register(Greeter.self, scope: .singleton) { _, _ in GreeterImpl() }
    let cached = try manager.resolve(Greeter.self)
    var same = 0
    for _ in 0..<count(1) {
        if try manager.resolve(Greeter.self) === cached { same += 1 }
    }
    precondition(same == count(1), "every lookup returns the cached instance")
case "launch":
    runLaunch(total: count(1), count: count(2))
case "first-use":
    try runFirstUse(folder: CommandLine.arguments[2], cache: CommandLine.arguments[3], calls: count(3))
case "dlopen-one":
    runDlopen(folder: CommandLine.arguments[2], calls: count(2))
default:
    fatalError(usage)
}
