import BeeHive
import Foundation
import ShopInterfaces

/// `--list`: what discovery found, read from inside the running process (`beehive inspect` reads the same
/// sections from files). Modules are registered but not started, so services and routes registered in code by
/// the modules' setUp are not there yet.
extension ShopRuntime {
    func list() throws {
        try registerModules()
        try addPluginFolders()
        try loadPlugin()
        Story.chapter("Annotated objects (loaded objects carrying the BeeHive note)")
        for object in hive.registry.objects {
            Story.note("  \(object.object.path)  build-id \(object.object.buildID ?? "none")  \(object.records.count) records")
        }
        Story.chapter("Records")
        let rows = hive.registry.records.map { record in
            [Self.fileName(record.origin.objectPath), record.origin.section, String(record.origin.offset), record.kind.rawValue, record.text]
        }
        printTable(header: ["OBJECT", "SECTION", "OFFSET", "KIND", "RECORD"], rows: rows)
        describeModules(title: "Modules, in launch order")
        Story.chapter("Services")
        for registration in hive.services.registrations {
            Story.note("  \(registration.service) -> \(registration.implementation) [\(registration.scope.rawValue), \(registration.status.rawValue)]")
        }
        Story.chapter("Routes")
        for route in hive.router.allRoutes { Story.note("  \(route)") }
        Story.chapter("Diagnostics")
        let diagnostics = hive.diagnostics.map(\.description) + hive.modules.diagnostics.map(\.description)
        if diagnostics.isEmpty { Story.note("  none") }
        for diagnostic in diagnostics { Story.note("  \(diagnostic)") }
    }

    private func printTable(header: [String], rows: [[String]]) {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            Story.note("  " + cells.joined(separator: "  "))
        }
    }

    private static func fileName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }
}
