import Foundation
import PackagePlugin

/// `swift package beehive-lint [--configuration debug|release] [--product NAME]...`: builds
/// the package's executables and dynamic libraries and runs `beehive lint` over all of them together, so that
/// records naming types in another product are resolved. Fails (non-zero exit) when lint finds a problem.
@main
struct BeeHiveLintPlugin: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let configuration = extractor.extractOption(named: "configuration").last ?? "debug"
        let wanted = Set(extractor.extractOption(named: "product"))
        guard configuration == "debug" || configuration == "release" else {
            throw Failure(description: "--configuration is debug or release, not '\(configuration)'")
        }

        let products = context.package.products.filter { product in
            guard wanted.isEmpty || wanted.contains(product.name) else { return false }
            if product is ExecutableProduct { return true }
            if let library = product as? LibraryProduct, library.kind == .dynamic { return true }
            return false
        }
        guard !products.isEmpty else {
            throw Failure(description: "no executable or dynamic library product to lint" + (wanted.isEmpty ? "" : " among \(wanted.sorted())"))
        }
        var parameters = PackageManager.BuildParameters()
        parameters.configuration = configuration == "release" ? .release : .debug
        var files: [String] = []
        for product in products {
            let result = try packageManager.build(.product(product.name), parameters: parameters)
            guard result.succeeded else {
                Diagnostics.error("building \(product.name) failed:\n\(result.logText)")
                throw Failure(description: "build of \(product.name) failed")
            }
            files += result.builtArtifacts.filter { $0.kind == .executable || $0.kind == .dynamicLibrary }.map(\.url.path)
        }

        let beehive = try context.tool(named: "BeeHiveLintTool")
        let process = Process()
        process.executableURL = beehive.url
        process.arguments = Array(Set(files)).sorted()
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "beehive lint found problems in \(Set(files).count) file(s) (exit status \(process.terminationStatus))")
        }
    }
}
