import BeeHive
@_spi(Benchmarks) import BeeHiveRegistry
import Glibc

/// The service that the first plugin of the probe's folder declares (`scripts/count-instructions` builds the
/// folder); the other plugins name services of their own.
protocol FirstUseService: AnyObject {}

final class FirstUseServiceImpl: FirstUseService, SimpleServiceImplementation {
    init() {}
}

/// The first use of a deferred service, CALLS times: each resolves the service of the folder's first plugin,
/// which loads it, then unloads it, as PluginFolderBenchmarks' `first-use@100` does.
func runFirstUse(folder: String, cache: String, calls: Int) throws {
    let hive = Hive(registry: AnnotationRegistry(source: LoadedObjectsSource()))
    hive.refresh()
    let found = try hive.addPluginDirectory(folder, cache: PluginIndexCache(directory: cache))
    precondition(found.isEmpty, "\(found)")
    let first = folder + "/libplugin000.so"
    for _ in 0..<calls {
        _ = try hive.services.resolve((any FirstUseService).self)
        _ = try hive.unloadPlugin(atPath: first)
    }
}

/// `dlopen` and `dlclose` of the folder's first plugin, CALLS times: what the first use costs at the least.
func runDlopen(folder: String, calls: Int) {
    let first = folder + "/libplugin000.so"
    for _ in 0..<calls {
        guard let handle = dlopen(first, RTLD_NOW | RTLD_LOCAL) else { fatalError(String(cString: dlerror())) }
        dlclose(handle)
    }
}
