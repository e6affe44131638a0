@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

@Suite struct OrderTests {
    private func descriptor(
        _ name: String, _ level: ModuleLevel = .normal, priority: Int = 0, dependencies: [String] = []
    ) -> ModuleDescriptor {
        ModuleDescriptor(name: name, level: level, priority: priority, isAsync: false, dependencies: dependencies, source: .code)
    }

    @Test func levelThenPriorityThenName() throws {
        let order = try ModuleOrder.sorted([
            descriptor("N0"), descriptor("B5", .basic, priority: 5), descriptor("N9", priority: 9),
            descriptor("B7", .basic, priority: 7), descriptor("M0"),
        ])
        #expect(order.map(\.name) == ["B7", "B5", "N9", "M0", "N0"])
    }

    @Test func dependenciesComeFirstEvenAcrossLevels() throws {
        let order = try ModuleOrder.sorted([
            descriptor("Core", priority: 1),
            descriptor("Feature", .basic, priority: 100, dependencies: ["Core", "NotRegistered"]),
            descriptor("Other", .basic, priority: 50),
        ])
        #expect(order.map(\.name) == ["Other", "Core", "Feature"])
    }

    @Test func orderDoesNotDependOnInputOrder() throws {
        let input = [
            descriptor("A", dependencies: ["C"]), descriptor("B", .basic), descriptor("C", priority: 3),
            descriptor("D", priority: 3), descriptor("E", .basic, priority: -1),
        ]
        let expected = try ModuleOrder.sorted(input).map(\.name)
        // Every one of the 120 orders, rather than a random one: a failure names the order that gave it.
        for order in Self.permutations(of: Array(input.indices)) {
            let permuted = order.map { input[$0] }
            #expect(try ModuleOrder.sorted(permuted).map(\.name) == expected, "input order \(permuted.map(\.name))")
        }
    }

    static func permutations(of items: [Int]) -> [[Int]] {
        guard let first = items.first else { return [[]] }
        return permutations(of: Array(items.dropFirst())).flatMap { rest in
            (0...rest.count).map { position in
                var order = rest
                order.insert(first, at: position)
                return order
            }
        }
    }

    @Test func cycleIsSpelledOut() {
        #expect {
            try ModuleOrder.sorted([
                descriptor("Free"), descriptor("C", dependencies: ["A"]), descriptor("A", dependencies: ["B"]),
                descriptor("B", dependencies: ["C"]), descriptor("Tail", dependencies: ["A"]),
            ])
        } throws: { error in
            guard case ModuleError.dependencyCycle(let cycle) = error else { return false }
            return cycle == ["A", "B", "C", "A"] && "\(error)".contains("A -> B -> C -> A")
        }
    }

    /// `HiveGraph` draws modules through the launch's own rule, so what `beehive graph` and `Hive.graph()` show
    /// is the order the module manager launches in, cycles included (their modules last, in rank order).
    @Test func theGraphDrawsTheLaunchOrder() throws {
        let modules = [
            ModuleAnnotation(typeName: "Feature", level: .basic, priority: 100, dependencies: ["Core", "NotRegistered"]),
            ModuleAnnotation(typeName: "Core", priority: 1),
            ModuleAnnotation(typeName: "Other", level: .basic, priority: 50),
            ModuleAnnotation(typeName: "Late", priority: -5, dependencies: ["Other"]),
        ]
        let launched = try ModuleOrder.sorted(modules.map {
            descriptor($0.typeName, $0.level, priority: $0.priority, dependencies: $0.dependencies)
        })
        #expect(HiveGraph(records: annotationUpdate(modules).added).modules.map(\.typeName) == launched.map(\.name))

        let cyclic = modules + [
            ModuleAnnotation(typeName: "C", dependencies: ["A"]), ModuleAnnotation(typeName: "A", dependencies: ["B"]),
            ModuleAnnotation(typeName: "B", level: .basic, dependencies: ["C"]),
        ]
        #expect(
            HiveGraph(records: annotationUpdate(cyclic).added).modules.map(\.typeName)
                == ["Other", "Core", "Feature", "Late", "B", "A", "C"])
    }

    @Test func selfDependencyIsACycle() {
        #expect {
            try ModuleOrder.sorted([descriptor("Narcissus", dependencies: ["Narcissus"])])
        } throws: { error in
            guard case ModuleError.dependencyCycle(let cycle) = error else { return false }
            return cycle == ["Narcissus", "Narcissus"]
        }
    }

    @Test func managerRejectsACycleAndKeepsTheRest() throws {
        let (manager, _) = makeManager()
        try manager.register(CycleAModule.self)
        try manager.register(CycleBModule.self)
        #expect {
            try manager.register(CycleCModule.self)
        } throws: { error in
            "\(error)".contains(
                "BeeHiveModulesTests.CycleAModule -> BeeHiveModulesTests.CycleBModule -> BeeHiveModulesTests.CycleCModule -> BeeHiveModulesTests.CycleAModule"
            )
        }
        #expect(manager.modules.map(\.name).sorted() == ["BeeHiveModulesTests.CycleAModule", "BeeHiveModulesTests.CycleBModule"])
    }
}
