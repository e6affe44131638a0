import BeeHiveRegistry

/// The one order every module is set up, initialized and notified in, whatever registered it: `LaunchOrder`'s
/// rule (level, then priority, then name, a module always after the modules it depends on), which
/// `HiveGraph` draws too. Dependencies on modules that are not in the set are ignored here; the manager
/// checks them.
public enum ModuleOrder {
    /// The descriptors in order.
    /// - Throws: `ModuleError.dependencyCycle` naming the modules of one cycle.
    public static func sorted(_ descriptors: [ModuleDescriptor]) throws(ModuleError) -> [ModuleDescriptor] {
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
        // Read in place through the buffer: through the array, each comparison copied two descriptors.
        descriptors.withUnsafeBufferPointer { buffer in
            LaunchOrder.arrange(
                count: buffer.count,
                ranksBefore: { ranksBefore(buffer[$0], buffer[$1]) },
                name: { buffer[$0].name },
                dependencies: { buffer[$0].dependencies })
        }
    }

    /// Whether `lhs` goes first when dependencies do not decide.
    static func ranksBefore(_ lhs: ModuleDescriptor, _ rhs: ModuleDescriptor) -> Bool {
        LaunchOrder.ranksBefore((lhs.level, lhs.priority, lhs.name), (rhs.level, rhs.priority, rhs.name))
    }
}
