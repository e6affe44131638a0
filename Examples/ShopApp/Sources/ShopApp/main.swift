import Foundation
import Logging
import ShopInterfaces

let options: DemoOptions
do {
    guard let parsed = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(DemoOptions.usage)
        exit(EXIT_SUCCESS)
    }
    options = parsed
} catch {
    FileHandle.standardError.write(Data("ShopApp: \(error)\n\n\(DemoOptions.usage)\n".utf8))
    exit(2)
}

// Logging is the app's to set up; the libraries only log through the loggers they are given.
let logLevel = options.logLevel
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = logLevel
    return handler
}

let runtime: ShopRuntime
do {
    runtime = try ShopRuntime(options: options)
} catch {
    FileHandle.standardError.write(Data("ShopApp: \(error)\n".utf8))
    exit(EXIT_FAILURE)
}
do {
    switch options.mode {
    case .tour: try await runtime.tour()
    case .open(let url): try await runtime.openOnly(url)
    case .signal(let signal): try await runtime.sendSignal(signal)
    case .list: try runtime.list()
    case .serve: try await runtime.serve()
    case .graph(let format): try await runtime.printGraph(format)
    }
} catch {
    runtime.logger.critical("\(error)")
    exit(EXIT_FAILURE)
}
