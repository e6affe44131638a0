@_spi(BeeHiveInternals) import BeeHiveRegistry

/// The one order every module is set up, initialized and notified in, whatever registered it: `LaunchOrder`'s
/// rule (level, then priority, then name, a module always after the modules it depends on), which
/// `HiveGraph` draws too. Dependencies on modules that are not in the set are ignored here; the manager
/// checks them.
package enum ModuleOrder {
    /// The descriptors in order.
    /// - Throws: `ModuleError.dependencyCycle` naming the modules of one cycle.
    package static func sorted(_ descriptors: [ModuleDescriptor]) throws(ModuleError) -> [ModuleDescriptor] {
        let arrangement = arrange(descriptors)
        if let cycle = arrangement.cycle { throw .dependencyCycle(cycle) }
        return arrangement.order
    }

    /// Every descriptor, in order; modules caught in a cycle come last in rank order, and `cycle` names one.
    static func arrange(_ descriptors: [ModuleDescriptor]) -> (order: [ModuleDescriptor], cycle: [String]?) {
        let (order, cycle) = arrangedIndices(descriptors)
        return (order.map { descriptors[$0] }, cycle)
    }

    /// `arrange` as positions in `descriptors`: the launch orders its entries by these without moving
    /// descriptors around or looking entries up by name.
    static func arrangedIndices(_ descriptors: [ModuleDescriptor]) -> (order: [Int], cycle: [String]?) {
        // Compares fields read in place: passing whole descriptors copied two of them, with their sources'
        // record origins (strings to retain and release), in every comparison of the sort; names are read
        // only when level and priority tie.
        descriptors.withUnsafeBufferPointer { buffer in
            LaunchOrder.arrange(
                count: buffer.count,
                ranksBefore: { lhs, rhs in
                    LaunchOrder.ranksBefore(
                        (buffer[lhs].level, buffer[lhs].priority), (buffer[rhs].level, buffer[rhs].priority),
                        namesAscend: { buffer[lhs].name < buffer[rhs].name })
                },
                name: { buffer[$0].name },
                dependencies: { buffer[$0].dependencies })
        }
    }
}
