import Testing

@testable import BeeHiveLint

@Suite struct SwiftMangledNameTests {
    private func path(_ module: String, _ components: (String, SwiftTypePath.Kind)...) -> SwiftTypePath {
        SwiftTypePath(module: module, components: components.map { .init(name: $0.0, kind: $0.1) })
    }

    @Test func descriptorSymbols() {
        #expect(SwiftMangledName.descriptorType(ofSymbol: "$s4Demo4ImplVMn") == path("Demo", ("Impl", .struct)))
        #expect(SwiftMangledName.descriptorType(ofSymbol: "$s4Demo10ShopModuleCMn") == path("Demo", ("ShopModule", .class)))
        #expect(
            SwiftMangledName.descriptorType(ofSymbol: "$s4Demo5OuterO5InnerVMn")
                == path("Demo", ("Outer", .enum), ("Inner", .struct)))
        #expect(SwiftMangledName.descriptorType(ofSymbol: "$s4Demo11HomeServiceMp") == path("Demo", ("HomeService", .protocol)))
    }

    /// Names as the compiler mangles them, with repeated identifiers and words replaced by substitutions;
    /// the expected names are what `swift demangle` prints for them.
    @Test func substitutions() {
        // "Demo" again: the first identifier, substitution AA.
        #expect(SwiftMangledName.descriptorType(ofSymbol: "$s4DemoAAVMn") == path("Demo", ("Demo", .struct)))
        // Words of "BeeHiveAnnotations" reused: 0aB11ModuleLevel is Bee + Hive + ModuleLevel.
        #expect(
            SwiftMangledName.descriptorType(ofSymbol: "$s18BeeHiveAnnotations0aB11ModuleLevelOMn")
                == path("BeeHiveAnnotations", ("BeeHiveModuleLevel", .enum)))
        #expect(
            SwiftMangledName.descriptorType(ofSymbol: "$s10Foundation014_CFErrorSPIForA10XMLUseOnlyVMn")
                == path("Foundation", ("_CFErrorSPIForFoundationXMLUseOnly", .struct)))
        #expect(SwiftMangledName.descriptorType(ofSymbol: "$sSo8NSObjectCMn") == path("__C", ("NSObject", .class)))
    }

    @Test func annotationNames() {
        #expect(SwiftMangledName.type("4Shop8CheckoutO10FlowModuleC") == path("Shop", ("Checkout", .enum), ("FlowModule", .class)))
        #expect(SwiftMangledName.type("4Shop5OuterXY5InnerV") == path("Shop", ("Outer", .anyNominal), ("Inner", .struct)))
    }

    @Test(arguments: [
        "$s4Demo4ImplV",  // no descriptor suffix
        "$s4Demo3BoxVyxGMn",  // generic arguments
        "$s20FoundationEssentials11FileManagerC0A0E19DirectoryEnumeratorCMn",  // extension in another module
        "$s4Demo4Impl33_0123456789ABCDEF0123456789ABCDEFLLVMn",  // private type
        "$s4Demo9ImplVMn",  // length past the end
        "$s4Demo4ImplAZVMn",  // substitution out of range
        "$sSDMn",  // standard library shorthand
        "4Demo4ImplVMn",  // not a Swift symbol
    ])
    func unreadSymbols(symbol: String) {
        #expect(SwiftMangledName.descriptorType(ofSymbol: symbol) == nil)
    }
}

@Suite struct SwiftTypePathTests {
    private let nested = SwiftTypePath(module: "Shop", components: [.init(name: "Outer", kind: .enum), .init(name: "Inner", kind: .struct)])

    @Test func mangledName() {
        #expect(nested.mangledName == "4Shop5OuterO5InnerV")
        #expect(nested.dottedName == "Shop.Outer.Inner")
        #expect(SwiftTypePath(module: "Shop", components: [.init(name: "P", kind: .protocol)]).mangledName == nil)
    }

    @Test func referencesWithoutKindsMatchAnyKind() {
        let dotted = SwiftTypePath(module: "Shop", components: [.init(name: "Outer", kind: .anyNominal), .init(name: "Inner", kind: .anyNominal)])
        #expect(nested.isNamed(by: dotted))
        let wrongKind = SwiftTypePath(module: "Shop", components: [.init(name: "Outer", kind: .anyNominal), .init(name: "Inner", kind: .class)])
        #expect(!nested.isNamed(by: wrongKind))
        let otherModule = SwiftTypePath(module: "Cart", components: dotted.components)
        #expect(!nested.isNamed(by: otherModule))
    }

    @Test func editDistance() {
        #expect(TypeInventory.editDistance("Shop.CartModuel", "Shop.CartModule", limit: 2) == 2)
        #expect(TypeInventory.editDistance("Shop.Cart", "Shop.Cart", limit: 2) == 0)
        #expect(TypeInventory.editDistance("Shop.Cart", "Shop.Checkout", limit: 2) == nil)
        #expect(TypeInventory.editDistance("", "ab", limit: 2) == 2)
    }
}
