@_spi(BeeHiveInternals) import BeeHiveRegistry
@_spi(BeeHiveInternals) import BeeHiveServices
import Testing

@Suite struct ServiceErrorTests {
    static let origin = RecordOrigin(objectPath: "/opt/app/libShop.so", section: "beehive_services", offset: 16)

    @Test(arguments: [
        (ServiceError.Kind.notRegistered(service: "App.Home"), ["App.Home", "register it"]),
        (.notRegistered(service: "App.Home", name: "main"), ["App.Home named \"main\"", "named scope"]),
        (.implementationNotFound(service: "App.Home", implementation: "App.HomeImpl"), ["App.Home", "'App.HomeImpl'", "mangled name"]),
        (.notConstructible(service: "App.Home", implementation: "App.HomeImpl"), ["App.Home", "'App.HomeImpl'", "ServiceImplementation"]),
        (.doesNotConform(service: "App.Home", implementation: "App.HomeImpl"), ["App.Home", "'App.HomeImpl'", "declare the conformance"]),
        (.duplicate(service: "App.Home", sources: [.code(fileID: "App/Setup.swift", line: 4), .annotation(origin)]),
         ["App.Home", "App/Setup.swift:4", "/opt/app/libShop.so [beehive_services+16]", "DuplicatePolicy.override"]),
        (.cycle(chain: ["App.A", "App.B", "App.A"]), ["App.A -> App.B -> App.A", "break it"]),
        (.missingArgument(service: "App.Home", argument: .name("id")), ["App.Home", "'id'"]),
        (.argumentTypeMismatch(service: "App.Home", argument: .position(0), expected: "Swift.Int", actual: "Swift.String"),
         ["App.Home", "#0", "Swift.Int", "Swift.String"]),
        (.weakScopeNeedsClass(service: "App.Home", implementation: "App.HomeValue"), ["App.Home", "App.HomeValue", "weak scope"]),
        (.creationFailed(service: "App.Home", implementation: "factory", reason: "disk full"), ["App.Home", "factory", "disk full"]),
        (.invalidConfiguration(source: "/etc/services.plist", reason: "entry 2 has no 'impl'"), ["/etc/services.plist", "entry 2"]),
    ])
    func messagesNameWhatIsInvolved(kind: ServiceError.Kind, names: [String]) {
        let error = ServiceError(kind)
        for name in names {
            #expect(error.description.contains(name), "\(error) should mention \(name)")
        }
    }

    @Test func descriptionAddsTheResolutionPathOfNestedLookups() {
        let nested = ServiceError(.notRegistered(service: "App.Account"), resolutionPath: ["App.Home", "App.Account"])
        #expect(nested.description.hasSuffix("(while resolving App.Home -> App.Account)"))
        let direct = ServiceError(.notRegistered(service: "App.Account"), resolutionPath: ["App.Account"])
        #expect(direct.description == direct.message)
    }
}
