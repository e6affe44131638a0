import BeeHive
import Foundation
import ShopInterfaces

/// `--graph FORMAT`: the graph of what the running hive has registered (`Hive.graph()`), the same drawing
/// `beehive graph` makes from the files, with what the modules registered in code while launching.
extension ShopRuntime {
    func printGraph(_ format: DemoOptions.GraphFormat) async throws {
        // The modules tell their story on standard output; it goes to standard error here, so that standard
        // output is the graph alone, ready for `dot -Tsvg`.
        let standardOutput = dup(STDOUT_FILENO)
        guard standardOutput >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            throw ShopError("cannot send the story to standard error: \(String(cString: strerror(errno)))")
        }
        let graphOutput = FileHandle(fileDescriptor: standardOutput, closeOnDealloc: true)
        try registerModules()
        try await launch()
        try loadPlugin()
        let graph = hive.graph()
        graphOutput.write(Data((format == .dot ? graph.dot : graph.mermaid).utf8))
        try shutDown()
    }
}
