import Foundation

#if canImport(Glibc)
import Glibc
#endif

// The tool the `beehive-bundle` command plugin runs once it has built the products; see docs/bundle.md. A
// separate target because SwiftPM cannot give a plugin an executable target that a product already builds
// (swiftlang/swift-package-manager#8831).
//
//   BeeHiveBundleTool --output OUT --executable PATH [--library PATH]... [--plugin PATH]...
//                     [--plugins-folder NAME] [--resources NAME]... [--swift-runtime]

func parse(_ arguments: [String]) throws(BundleError) -> BundleRequest {
    var request = BundleRequest()
    var remaining = arguments[...]
    func value(after option: String) throws(BundleError) -> String {
        guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--output": request.output = try value(after: argument)
        case "--executable": request.executable = try value(after: argument)
        case "--library": request.libraries.append(try value(after: argument))
        case "--plugin": request.plugins.append(try value(after: argument))
        case "--plugins-folder": request.pluginsFolder = try value(after: argument)
        case "--resources": request.resources.append(try value(after: argument))
        case "--swift-runtime": request.includesSwiftRuntime = true
        default: throw .usage("unknown argument '\(argument)'")
        }
    }
    guard !request.output.isEmpty, !request.executable.isEmpty else { throw .usage("--output and --executable are required") }
    let components = request.pluginsFolder.split(separator: "/", omittingEmptySubsequences: false)
    guard !request.pluginsFolder.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
        components.first != "lib"
    else {
        throw .usage("--plugins-folder is a folder inside the bundle, such as 'plugins' or 'shop-plugins', not "
            + "'\(request.pluginsFolder)' (no '..', no absolute path, not lib/, which holds the Swift runtime)")
    }
    return request
}

func summary(_ layout: Bundler.Layout, _ request: BundleRequest) -> String {
    let executable = (request.executable as NSString).lastPathComponent
    var lines = ["Bundle in \(layout.root):"]
    for file in layout.files {
        let size = (try? FileManager.default.attributesOfItem(atPath: layout.root + "/" + file.path)[.size] as? Int) ?? 0
        let padded = file.path.padding(toLength: max(44, file.path.count), withPad: " ", startingAt: 0)
        lines.append("  \(padded) \(String(format: "%8.1f", Double(size) / 1_048_576)) MB  RUNPATH \(file.runpath ?? "none")")
    }
    for resources in layout.resources { lines.append("  \(resources)/") }
    lines += layout.notes.map { "  note: \($0)" }
    if !layout.systemLibraries.isEmpty {
        lines.append("From the system (not bundled): \(layout.systemLibraries.joined(separator: ", "))")
    }
    lines.append("Run it from anywhere:  \(layout.root)/\(executable)")
    lines.append("or through PATH:       ln -s \(layout.root)/\(executable) /usr/local/bin/\(executable)")
    if !layout.unbundledRuntime.isEmpty {
        lines.append("The Swift runtime is not bundled (--swift-runtime bundles it): the executable looks for "
            + "\(layout.unbundledRuntime.joined(separator: ", ")) in \(layout.runtimeFolders.joined(separator: ":")), "
            + "where this toolchain has them; on a machine that has them elsewhere, set LD_LIBRARY_PATH to their folder")
    }
    return lines.joined(separator: "\n")
}

do {
    let request = try parse(Array(CommandLine.arguments.dropFirst()))
    var bundler = Bundler(request: request)
    print(summary(try bundler.make(), request))
} catch {
    FileHandle.standardError.write(Data("beehive-bundle: \(error)\n".utf8))
    exit(1)
}
