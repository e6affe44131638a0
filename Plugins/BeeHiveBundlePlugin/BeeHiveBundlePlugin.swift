import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-directory OUT beehive-bundle --product APP --output OUT
/// [--configuration debug|release] [--plugin PRODUCT]... [--library PRODUCT]... [--plugins-folder NAME]
/// [--swift-runtime]`: builds the executable and the plugins and lays them out as a folder that runs from
/// anywhere (docs/bundle.md).
@main
struct BeeHiveBundlePlugin: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let configuration = extractor.extractOption(named: "configuration").last ?? "debug"
        let productName = extractor.extractOption(named: "product").last
        let output = extractor.extractOption(named: "output").last
        let pluginNames = extractor.extractOption(named: "plugin")
        let libraryNames = extractor.extractOption(named: "library")
        let pluginsFolder = extractor.extractOption(named: "plugins-folder").last
        let includesRuntime = extractor.extractFlag(named: "swift-runtime") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw Failure(description: "unknown arguments \(extractor.remainingArguments); see docs/bundle.md")
        }
        guard configuration == "debug" || configuration == "release" else {
            throw Failure(description: "--configuration is debug or release, not '\(configuration)'")
        }
        guard let output else { throw Failure(description: "--output OUT is required: the folder to put the bundle in") }

        let package = context.package
        let executables = package.products.compactMap { $0 as? ExecutableProduct }
        let executable: ExecutableProduct
        if let productName {
            guard let named = executables.first(where: { $0.name == productName }) else {
                throw Failure(description: "\(productName) is not an executable product of \(package.displayName); its executables: \(executables.map(\.name))")
            }
            executable = named
        } else {
            guard executables.count == 1 else {
                throw Failure(description: "name the executable with --product, one of \(executables.map(\.name))")
            }
            executable = executables[0]
        }
        let dynamicLibraries = package.products.filter { ($0 as? LibraryProduct)?.kind == .dynamic }
        func dynamicLibrary(_ name: String, option: String) throws -> Product {
            guard let product = dynamicLibraries.first(where: { $0.name == name }) else {
                throw Failure(description: "--\(option) \(name) is not a dynamic library product of \(package.displayName); its dynamic libraries: \(dynamicLibraries.map(\.name))")
            }
            return product
        }
        let libraries = try libraryNames.map { try dynamicLibrary($0, option: "library") }
        // Every dynamic library of the package is a plugin unless named otherwise; the tool bundles one the
        // executable needs as a library instead.
        let plugins = try pluginNames.isEmpty
            ? dynamicLibraries.filter { !libraryNames.contains($0.name) }
            : pluginNames.map { try dynamicLibrary($0, option: "plugin") }

        var parameters = PackageManager.BuildParameters()
        parameters.configuration = configuration == "release" ? .release : .debug
        func build(_ product: Product, kind: PackageManager.BuildResult.BuiltArtifact.Kind) throws -> String {
            let result = try packageManager.build(.product(product.name), parameters: parameters)
            guard result.succeeded else {
                Diagnostics.error("building \(product.name) failed:\n\(result.logText)")
                throw Failure(description: "build of \(product.name) failed")
            }
            guard let artifact = result.builtArtifacts.first(where: { $0.kind == kind }) else {
                throw Failure(description: "building \(product.name) made no \(kind) (artifacts: \(result.builtArtifacts.map(\.url.path)))")
            }
            return artifact.url.path
        }

        var toolArguments = ["--output", URL(fileURLWithPath: output, relativeTo: package.directoryURL).standardizedFileURL.path,
                             "--executable", try build(executable, kind: .executable)]
        for library in libraries { toolArguments += ["--library", try build(library, kind: .dynamicLibrary)] }
        for plugin in plugins { toolArguments += ["--plugin", try build(plugin, kind: .dynamicLibrary)] }
        if let pluginsFolder { toolArguments += ["--plugins-folder", pluginsFolder] }
        if includesRuntime { toolArguments.append("--swift-runtime") }
        for name in resourceBundles(of: [executable] + libraries + plugins, in: package) {
            toolArguments += ["--resources", name]
        }

        let tool = try context.tool(named: "BeeHiveBundleTool")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = toolArguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "no bundle made: BeeHiveBundleTool exited with status \(process.terminationStatus), its 'beehive-bundle:' line says why")
        }
    }

    /// The names SwiftPM gives the resource bundles of the products' targets and everything they depend on
    /// (`Package_Target.resources`); the tool copies those that the build made.
    func resourceBundles(of products: [Product], in root: Package) -> [String] {
        var packageOfTarget: [Target.ID: String] = [:]
        var packages = [root]
        while let package = packages.popLast() {
            for target in package.targets { packageOfTarget[target.id] = package.displayName }
            packages += package.dependencies.map(\.package)
        }
        var names: Set<String> = []
        for target in products.flatMap(\.targets) {
            for each in [target] + target.recursiveTargetDependencies {
                guard each is SourceModuleTarget, let package = packageOfTarget[each.id] else { continue }
                names.insert("\(package)_\(each.name).resources")
            }
        }
        return names.sorted()
    }
}
