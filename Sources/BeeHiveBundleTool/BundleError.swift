import BeeHiveLint

/// Why a bundle could not be made, in words that say what to do about it.
enum BundleError: Error, CustomStringConvertible {
    case usage(String)
    case unreadable(DynamicSection.ReadError)
    case missingLibrary(name: String, neededBy: String, searched: [String])
    case runpathTooLong(file: String, current: String, wanted: String)
    case runpathShared(file: String, current: String)
    case noRunpath(file: String, needs: [String])
    case runpathNotRelative(file: String, value: String)
    case outputNotABundle(String)
    case fileSystem(operation: String, path: String, reason: String)

    var description: String {
        switch self {
        case .usage(let text):
            text
        case .unreadable(let error):
            "cannot read the dynamic section of \(error)"
        case .missingLibrary(let name, let neededBy, let searched):
            "\(neededBy) needs \(name), which is neither in \(searched.joined(separator: ", ")) nor in the system's "
                + "library cache (ldconfig -p): build the product that makes it, or install the system package that has it"
        case .runpathTooLong(let file, let current, let wanted):
            "\(file): its RUNPATH '\(current)' is \(current.utf8.count) bytes, shorter than the '\(wanted)' "
                + "(\(wanted.utf8.count) bytes) the bundle needs, and it is rewritten in place: choose a plugins "
                + "folder nested less deeply, or link the file with a longer -rpath"
        case .runpathShared(let file, let current):
            "\(file): the linker stored another string inside its RUNPATH '\(current)', so it cannot be rewritten in "
                + "place; link it with gold or lld (SwiftPM's defaults), which keep the RUNPATH apart"
        case .noRunpath(let file, let needs):
            "\(file) has no RUNPATH, so the loader would not find \(needs.joined(separator: ", ")) in the bundle: "
                + "link it with -Xlinker -rpath -Xlinker '$ORIGIN' (SwiftPM does for the products it builds)"
        case .runpathNotRelative(let file, let value):
            "\(file): its RUNPATH is '\(value)' after the rewrite, which names an absolute path: this is a bug of beehive-bundle"
        case .outputNotABundle(let path):
            "\(path) exists and is neither empty nor a bundle made by beehive-bundle: pass a new or empty folder to --output"
        case .fileSystem(let operation, let path, let reason):
            "cannot \(operation) \(path): \(reason)"
        }
    }
}
