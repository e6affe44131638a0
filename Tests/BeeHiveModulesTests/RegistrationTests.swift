@_spi(BeeHiveInternals) import BeeHiveModules
@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

@Suite struct RegistrationTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>moduleClasses</key>
            <array>
                <dict>
                    <key>moduleClass</key><string>BeeHiveModulesTests.PlistModule</string>
                    <key>moduleLevel</key><integer>0</integer>
                    <key>modulePriority</key><string>5</string>
                </dict>
            </array>
        </dict>
        </plist>
        """

    static let json = """
        {"moduleClasses": [{"moduleClass": "BeeHiveModulesTests.JSONModule", "moduleLevel": 1, "modulePriority": 100}]}
        """

    /// Plist, JSON, annotation and code registrations end up in one order, whatever order they came in.
    @Test(arguments: [0, 1, 2])
    func allSourcesSortTogether(registrationOrder: Int) async throws {
        let (manager, recorder) = makeManager()
        let plistPath = try temporaryFile(named: "modules.plist", contents: Self.plist)
        let steps: [() throws -> Void] = [
            { try manager.registerModules(fromConfigurationFileAt: plistPath) },
            { try manager.registerModules(fromConfiguration: Data(Self.json.utf8), path: "inline.json") },
            {
                manager.apply(
                    annotationUpdate([ModuleAnnotation(typeName: "BeeHiveModulesTests.AnnotatedModule", level: .basic, priority: 10)]))
            },
            { try manager.register(CodeModule.self, priority: 50) },
        ]
        let rotated = Array(steps[registrationOrder...] + steps[..<registrationOrder])
        for step in rotated { try step() }

        let expected = ["AnnotatedModule", "PlistModule", "JSONModule", "CodeModule"]
        #expect(manager.modules.map { String($0.name.split(separator: ".").last!) } == expected)
        try manager.start()
        try await manager.waitForLaunch()
        #expect(recorder.modules(receiving: .setUp) == expected)
        #expect(recorder.modules(receiving: .initialize) == expected)
        #expect(recorder.modules(receiving: .splash) == expected)

        let sources = Dictionary(uniqueKeysWithValues: manager.modules.map { ($0.name, $0.source) })
        #expect(sources["BeeHiveModulesTests.PlistModule"] == .configurationFile(path: plistPath, entry: 0))
        #expect(sources["BeeHiveModulesTests.CodeModule"] == .code)
        guard case .annotation(let origin) = sources["BeeHiveModulesTests.AnnotatedModule"] else {
            Issue.record("annotated module lost its record origin")
            return
        }
        #expect(origin.objectPath == "/opt/app/libshop.so")
    }

    @Test func duplicateAcrossSourcesIsRegisteredOnceAndReported() throws {
        let (manager, _) = makeManager()
        try manager.register(AlphaModule.self, priority: 7)
        let diagnostics = manager.apply(annotationUpdate([ModuleAnnotation(typeName: "BeeHiveModulesTests.AlphaModule")]))
        try manager.registerModules(
            fromConfiguration: Data(#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule"}]}"#.utf8),
            path: "dup.json")
        try manager.register(AlphaModule())

        #expect(manager.modules.count == 1)
        #expect(manager.modules.first?.priority == 7)
        #expect(diagnostics.count == 1)
        let duplicates = manager.diagnostics.filter {
            if case .duplicateRegistration(let module, let first, _) = $0.kind {
                return module == "BeeHiveModulesTests.AlphaModule" && first == .code
            }
            return false
        }
        #expect(duplicates.count == 3)
        #expect(diagnostics.first?.description.contains("libshop.so") == true)
    }

    @Test func unresolvableAndNonConformingRecordsAreReportedWithTheirObject() throws {
        let (manager, _) = makeManager()
        let diagnostics = manager.apply(
            annotationUpdate(
                [
                    ModuleAnnotation(typeName: "BeeHiveModulesTests.GhostModule"),
                    ModuleAnnotation(typeName: "BeeHiveModulesTests.NotAModule"),
                    ModuleAnnotation(typeName: "BeeHiveModulesTests.BetaModule"),
                ], objectPath: "/opt/app/plugins/libghost.so"))
        #expect(manager.modules.map(\.name) == ["BeeHiveModulesTests.BetaModule"])
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.severity == .error && $0.description.contains("/opt/app/plugins/libghost.so") })
        #expect(diagnostics.contains { "\($0)".contains("'BeeHiveModulesTests.GhostModule'") && "\($0)".contains("not found") })
        #expect(diagnostics.contains { "\($0)".contains("does not conform to Module") })
    }

    @Test func plistLevelsAndPriorities() throws {
        let (manager, _) = makeManager()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>moduleClasses</key><array>
              <dict><key>moduleClass</key><string>BeeHiveModulesTests.AlphaModule</string></dict>
              <dict><key>moduleClass</key><string>BeeHiveModulesTests.BetaModule</string>
                    <key>moduleLevel</key><string>basic</string><key>moduleAsync</key><true/></dict>
              <dict><key>moduleClass</key><string>BeeHiveModulesTests.GammaModule</string>
                    <key>modulePriority</key><integer>-3</integer><key>moduleLevel</key><integer>1</integer></dict>
            </array></dict></plist>
            """
        try manager.registerModules(fromConfiguration: Data(plist.utf8), path: "levels.plist")
        let modules = manager.modules
        #expect(modules.map(\.name) == ["BeeHiveModulesTests.BetaModule", "BeeHiveModulesTests.AlphaModule", "BeeHiveModulesTests.GammaModule"])
        #expect(modules[0].level == .basic && modules[0].isAsync)
        #expect(modules[2].priority == -3 && modules[2].level == .normal)
    }

    @Test(arguments: [
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","modulePriorty":3}]}"#, "unknown key 'modulePriorty'"),
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","moduleLevel":2}]}"#, "moduleLevel '2'"),
        (#"{"moduleClasses":[{"moduleLevel":0}]}"#, "needs a 'moduleClass'"),
        (#"{"modules":[]}"#, "no 'moduleClasses'"),
        (#"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule","modulePriority":"high"}]}"#, "modulePriority 'high'"),
        ("not a list at all", "neither valid JSON nor a valid property list"),
    ])
    func badConfigurationIsRefusedWithItsPath(contents: String, expected: String) {
        let (manager, _) = makeManager()
        #expect {
            try manager.registerModules(fromConfiguration: Data(contents.utf8), path: "/etc/app/modules.json")
        } throws: { error in
            guard case ModuleError.invalidConfigurationFile(let path, _) = error else { return false }
            return path == "/etc/app/modules.json" && "\(error)".contains(expected)
        }
        #expect(manager.modules.isEmpty)
    }

    @Test func unknownClassInConfigurationRegistersNothing() {
        let (manager, _) = makeManager()
        let json = #"{"moduleClasses":[{"moduleClass":"BeeHiveModulesTests.AlphaModule"},{"moduleClass":"Nowhere.Module"}]}"#
        #expect {
            try manager.registerModules(fromConfiguration: Data(json.utf8), path: "/etc/app/modules.json")
        } throws: { error in
            guard case ModuleError.unresolvedModule(let name, .configurationFile(let path, let entry)) = error else { return false }
            return name == "Nowhere.Module" && path == "/etc/app/modules.json" && entry == 1
        }
        #expect(manager.modules.isEmpty)
    }

    @Test func missingFileIsReported() {
        let (manager, _) = makeManager()
        #expect {
            try manager.registerModules(fromConfigurationFileAt: "/nonexistent/modules.plist")
        } throws: { error in
            "\(error)".contains("/nonexistent/modules.plist") && "\(error)".contains("cannot be read")
        }
    }

    @Test func missingDependencyStopsStartUntilFixed() throws {
        let (manager, recorder) = makeManager()
        try manager.register(CodeModule.self)
        #expect {
            try manager.start()
        } throws: { error in
            guard case ModuleError.missingDependency(let module, let dependency) = error else { return false }
            return module == "BeeHiveModulesTests.CodeModule" && dependency == "BeeHiveModulesTests.PlistModule"
        }
        #expect(recorder.all.isEmpty)
        try manager.register(PlistModule.self)
        try manager.start()
        #expect(recorder.modules(receiving: .setUp) == ["PlistModule", "CodeModule"])
    }
}
