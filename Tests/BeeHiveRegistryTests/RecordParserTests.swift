@_spi(BeeHiveInternals) import BeeHiveRegistry
import Testing

/// One record parsed on its own, as if it came from the section its kind belongs in.
private func parse(_ text: String, section: String? = nil) -> Result<AnnotationRecord, RegistryDiagnostic> {
    let kindSection = ["module": SectionName.modules, "service": SectionName.services]
    let kind = text.split(separator: "|").dropFirst().first.map(String.init) ?? ""
    let origin = RecordOrigin(objectPath: "/lib/libShop.so", section: section ?? kindSection[kind] ?? SectionName.routes, offset: 0)
    return RecordParser.parse(bytes: Array(text.utf8), origin: origin)
}

private func payload(_ text: String) throws -> AnnotationRecord.Payload {
    try parse(text).get().payload
}

private func failure(_ text: String, section: String? = nil) -> RegistryDiagnostic? {
    if case .failure(let diagnostic) = parse(text, section: section) { return diagnostic }
    return nil
}

private func malformedReason(_ text: String) -> String? {
    if case .malformedRecord(let reason) = failure(text)?.kind { return reason }
    return nil
}

@Suite struct ModuleRecords {
    @Test func defaultsFillTheOmittedAttributes() throws {
        #expect(try payload("beehive:1|module|Shop.ShopModule") == .module(ModuleAnnotation(typeName: "Shop.ShopModule")))
        let defaults = ModuleAnnotation(typeName: "Shop.ShopModule")
        #expect(defaults.level == .normal && defaults.priority == 0 && !defaults.isAsync)
    }

    @Test func everyAttribute() throws {
        #expect(
            try payload("beehive:1|module|Shop.ShopModule|level=basic|priority=100|async=1")
                == .module(ModuleAnnotation(typeName: "Shop.ShopModule", level: .basic, priority: 100, isAsync: true)))
        #expect(
            try payload("beehive:1|module|Shop.ShopModule|level=normal|async=0")
                == .module(ModuleAnnotation(typeName: "Shop.ShopModule", level: .normal, isAsync: false)))
    }

    @Test func attributesInAnyOrder() throws {
        #expect(
            try payload("beehive:1|module|Shop.M|async=1|priority=-5|level=basic")
                == .module(ModuleAnnotation(typeName: "Shop.M", level: .basic, priority: -5, isAsync: true)))
    }

    @Test(arguments: [("7", 7), ("-7", -7), ("+7", 7), ("0", 0), ("999999999999999999", 999_999_999_999_999_999)])
    func priorities(text: String, value: Int) throws {
        #expect(try payload("beehive:1|module|Shop.M|priority=\(text)") == .module(ModuleAnnotation(typeName: "Shop.M", priority: value)))
    }

    @Test func recordKeepsTextAndOrigin() throws {
        let record = try parse("beehive:1|module|Shop.M|priority=3").get()
        #expect(record.text == "beehive:1|module|Shop.M|priority=3")
        #expect(record.origin == RecordOrigin(objectPath: "/lib/libShop.so", section: "beehive_mods", offset: 0))
        #expect(record.kind == .module)
    }
}

@Suite struct ServiceRecords {
    @Test func defaultsToTransientWithoutName() throws {
        #expect(
            try payload("beehive:1|service|Shop.HomeService|Shop.HomeServiceImpl")
                == .service(ServiceAnnotation(protocolName: "Shop.HomeService", typeName: "Shop.HomeServiceImpl")))
    }

    @Test(arguments: ServiceScope.allCases.filter { $0 != .named })
    func everyScope(scope: ServiceScope) throws {
        #expect(
            try payload("beehive:1|service|Shop.P|Shop.T|scope=\(scope.rawValue)|name=")
                == .service(ServiceAnnotation(protocolName: "Shop.P", typeName: "Shop.T", scope: scope)))
    }

    @Test func namedScopeWithName() throws {
        #expect(
            try payload("beehive:1|service|Shop.P|Shop.T|scope=named|name=checkout-2.v1")
                == .service(ServiceAnnotation(protocolName: "Shop.P", typeName: "Shop.T", scope: .named, name: "checkout-2.v1")))
    }
}

@Suite struct RouteAndTargetRecords {
    @Test func routeDefaults() throws {
        #expect(
            try payload("beehive:1|route|/user/view/:id|Shop.UserHandler")
                == .route(RouteAnnotation(pattern: "/user/view/:id", typeName: "Shop.UserHandler")))
    }

    @Test func routeAttributes() throws {
        #expect(
            try payload("beehive:1|route|/cart|Shop.CartHandler|scheme=shop+v2.x-y|priority=-3")
                == .route(RouteAnnotation(pattern: "/cart", typeName: "Shop.CartHandler", scheme: "shop+v2.x-y", priority: -3)))
        #expect(
            try payload("beehive:1|route|/cart|Shop.CartHandler|scheme=|priority=0")
                == .route(RouteAnnotation(pattern: "/cart", typeName: "Shop.CartHandler")))
    }

    @Test func target() throws {
        #expect(try payload("beehive:1|target|Basket_2|Shop.BasketTarget") == .target(TargetAnnotation(name: "Basket_2", typeName: "Shop.BasketTarget")))
    }

    @Test(arguments: ["Shop.Outer.Inner", "4Demo4ImplV", "Ünïcode.Typ_e2", "$s4Demo4ImplC"])
    func typeNameForms(name: String) throws {
        #expect(try payload("beehive:1|module|\(name)") == .module(ModuleAnnotation(typeName: name)))
    }
}

@Suite struct Strictness {
    @Test(arguments: [
        ("beehive:1|module|Shop.M|colour=red", "unknown attribute 'colour'"),
        ("beehive:1|service|Shop.P|Shop.T|level=basic", "unknown attribute 'level'"),
        ("beehive:1|route|/a|Shop.H|async=1", "unknown attribute 'async'"),
        ("beehive:1|module|Shop.M|Level=basic", "unknown attribute 'Level'"),
    ])
    func unknownKeys(text: String, reason: String) {
        #expect(malformedReason(text)?.contains(reason) == true)
    }

    @Test(arguments: [
        "beehive:1|module|Shop.M|level=basic|level=normal",
        "beehive:1|module|Shop.M|priority=1|priority=1",
        "beehive:1|service|Shop.P|Shop.T|scope=singleton|scope=singleton",
        "beehive:1|route|/a|Shop.H|scheme=a|scheme=b",
    ])
    func duplicatedKeys(text: String) {
        #expect(malformedReason(text)?.contains("given twice") == true)
    }

    @Test(arguments: [
        "beehive:1|module|Shop.M|level=extreme",
        "beehive:1|module|Shop.M|level=",
        "beehive:1|module|Shop.M|level=Basic",
        "beehive:1|module|Shop.M|priority=abc",
        "beehive:1|module|Shop.M|priority=1.5",
        "beehive:1|module|Shop.M|priority=",
        "beehive:1|module|Shop.M|priority=-",
        "beehive:1|module|Shop.M|priority= 1",
        "beehive:1|module|Shop.M|priority=0x10",
        "beehive:1|module|Shop.M|priority=1234567890123456789",
        "beehive:1|module|Shop.M|async=2",
        "beehive:1|module|Shop.M|async=true",
        "beehive:1|service|Shop.P|Shop.T|scope=forever",
        "beehive:1|service|Shop.P|Shop.T|name=two words",
        "beehive:1|service|Shop.P|Shop.T|name=a|b",
        "beehive:1|route|/a|Shop.H|scheme=1shop",
        "beehive:1|route|/a|Shop.H|scheme=sh op",
        "beehive:1|route|/a|Shop.H|priority=high",
    ])
    func badValues(text: String) {
        #expect(failure(text)?.kind.name == "malformedRecord")
    }

    @Test(arguments: [
        "beehive:1|module|", "beehive:1|module|Shop..M", "beehive:1|module|.Shop", "beehive:1|module|Shop.",
        "beehive:1|module|Shop M", "beehive:1|module|Shop-M", "beehive:1|module|Shop.M()",
        "beehive:1|service|Shop P|Shop.T", "beehive:1|service|Shop.P|", "beehive:1|route|/a|Shop/H",
        "beehive:1|target|Bad Name|Shop.T", "beehive:1|target||Shop.T",
    ])
    func badNames(text: String) {
        #expect(failure(text)?.kind.name == "malformedRecord")
    }

    @Test func namedScopeNeedsAName() {
        #expect(malformedReason("beehive:1|service|Shop.P|Shop.T|scope=named")?.contains("scope=named needs a non-empty name") == true)
        #expect(malformedReason("beehive:1|service|Shop.P|Shop.T|scope=named|name=")?.contains("scope=named") == true)
    }

    @Test(arguments: [
        "beehive:1", "beehive:1|module", "beehive:1|service|Shop.P", "beehive:1|route|/a",
        "beehive:1|target|Basket", "beehive:1|target|Basket|Shop.T|extra=1", "beehive:1|widget|Shop.W",
        "beehive:1|Module|Shop.M", "beehive:1|module|Shop.M|basic", "beehive:1|module|Shop.M|",
        "beehive:1|route||Shop.H", "beehive:1|route|/a b|Shop.H", "beehive:1|route|/a\tb|Shop.H",
        "hello world", "BeeHive:1|module|Shop.M", " beehive:1|module|Shop.M", "beehive:|module|Shop.M",
        "beehive:one|module|Shop.M", "beehive:-1|module|Shop.M", "beehive|module|Shop.M",
    ])
    func malformedStructure(text: String) {
        #expect(failure(text)?.kind.name == "malformedRecord")
    }

    @Test(arguments: ["beehive:2", "beehive:10", "beehive:01", "beehive:0"])
    func unknownVersions(version: String) {
        let diagnostic = failure("\(version)|module|Shop.M")
        #expect(diagnostic?.kind == .unknownVersion(version))
        #expect(diagnostic?.severity == .error)
        #expect(diagnostic?.message.contains("beehive:1") == true)
    }

    @Test func unknownVersionIsReportedWhateverFollows() {
        #expect(failure("beehive:2|gizmo|whatever; new syntax")?.kind == .unknownVersion("beehive:2"))
    }

    @Test func diagnosticNamesObjectSectionAndRecord() throws {
        let diagnostic = try #require(failure("beehive:1|module|Shop.M|colour=red"))
        #expect(diagnostic.objectPath == "/lib/libShop.so")
        #expect(diagnostic.section == "beehive_mods")
        #expect(diagnostic.record == "beehive:1|module|Shop.M|colour=red")
        #expect(diagnostic.description.contains("/lib/libShop.so [beehive_mods]"))
        #expect(diagnostic.description.contains("colour"))
    }

    @Test func payloadThrowsWithoutAnOrigin() throws {
        #expect(throws: RegistryDiagnostic.self) { try RecordParser.payload(of: "beehive:1|module|Shop M") }
        #expect(try RecordParser.payload(of: "beehive:1|target|T|Shop.T") == .target(TargetAnnotation(name: "T", typeName: "Shop.T")))
    }
}
