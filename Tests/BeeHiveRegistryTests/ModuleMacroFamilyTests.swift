@_spi(BeeHiveInternals) import BeeHiveRegistry
import Foundation
import Testing

/// beehive.h's `BEEHIVE_MODULE(type, attribute...)` and the five module macros kept as its aliases: the same
/// bytes in the module section for the same module, with clang and gcc, in C and in C++; a misspelt attribute
/// does not compile.
@Suite struct ModuleMacroFamilyTests {
    struct Toolchain: CustomStringConvertible, Sendable {
        let compiler: String
        let flags: [String]
        var description: String { ([compiler] + flags).joined(separator: " ") }
    }

    static let toolchains = [
        Toolchain(compiler: "clang", flags: ["-std=c11"]),
        Toolchain(compiler: "gcc", flags: ["-std=c11"]),
        Toolchain(compiler: "clang", flags: ["-x", "c++", "-std=c++17"]),
        Toolchain(compiler: "g++", flags: ["-x", "c++", "-std=c++17"]),
    ]
    static let warnings = ["-Wall", "-Wextra", "-Werror", "-pedantic"]

    static let oldSpelling = """
        #include <beehive.h>
        BeeHiveMod(Shop.Plain)
        BeeHiveModule(Shop.Basic, basic, 100, sync)
        BeeHiveModule(Shop.Negative, normal, -5, async)
        BeeHiveModuleDepends(Shop.Checkout, normal, 0, sync, "Shop.Basic,Shop.Plain")
        BeeHiveModuleOnDemand(Shop.Cart, basic, 3, sync)
        BeeHiveModuleOnDemandDepends(Shop.Wishlist, normal, 5, async, "Shop.Cart")

        """
    /// The same modules, with the attributes in another order than the record's, and defaults left out.
    static let newSpelling = """
        #include <beehive.h>
        BEEHIVE_MODULE(Shop.Plain)
        BEEHIVE_MODULE(Shop.Basic, priority(100), level(basic))
        BEEHIVE_MODULE(Shop.Negative, async, priority(-5))
        BEEHIVE_MODULE(Shop.Checkout, depends("Shop.Basic,Shop.Plain"), sync)
        BEEHIVE_MODULE(Shop.Cart, on_demand, level(basic), priority(3))
        BEEHIVE_MODULE(Shop.Wishlist, on_demand, depends("Shop.Cart"), async, priority(5), level(normal))

        """
    static let records: Set<String> = [
        "beehive:1|module|Shop.Plain",
        "beehive:1|module|Shop.Basic|level=basic|priority=100|async=0",
        "beehive:1|module|Shop.Negative|level=normal|priority=-5|async=1",
        "beehive:1|module|Shop.Checkout|level=normal|priority=0|async=0|depends=Shop.Basic,Shop.Plain",
        "beehive:1|module|Shop.Cart|level=basic|priority=3|async=0|ondemand=1",
        "beehive:1|module|Shop.Wishlist|level=normal|priority=5|async=1|depends=Shop.Cart|ondemand=1",
    ]

    /// The bytes of the module section of a library built from `source`.
    static func moduleSection(_ source: String, _ toolchain: Toolchain) throws -> [UInt8] {
        let image = try ELFImage(TestLibrary.build(source, compiler: toolchain.compiler, flags: toolchain.flags + warnings))
        let index = try image.sectionIndex(named: "beehive_mods")
        let offset = Int(image.section(index, .offset))
        return Array(image.bytes[offset..<offset + Int(image.section(index, .size))])
    }

    @Test(.timeLimit(.minutes(10)), arguments: toolchains)
    func bothSpellingsWriteTheSameBytes(toolchain: Toolchain) throws {
        let old = try Self.moduleSection(Self.oldSpelling, toolchain)
        let new = try Self.moduleSection(Self.newSpelling, toolchain)
        #expect(new == old)
        let texts = new.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(texts) == Self.records)
        #expect(texts.count == Self.records.count)
        for text in texts { #expect(throws: Never.self) { try RecordParser.payload(of: text) } }
    }

    /// Each bad annotation beside the good one it was made from: the good one compiles, so the failure is the
    /// attribute's.
    @Test(.timeLimit(.minutes(10)), arguments: [
        ("BEEHIVE_MODULE(Shop.Cart, level(basic))", "BEEHIVE_MODULE(Shop.Cart, levle(basic))"),
        ("BEEHIVE_MODULE(Shop.Cart, level(basic))", "BEEHIVE_MODULE(Shop.Cart, level(basci))"),
        ("BEEHIVE_MODULE(Shop.Cart, async)", "BEEHIVE_MODULE(Shop.Cart, asynch)"),
        ("BEEHIVE_MODULE(Shop.Cart, on_demand)", "BEEHIVE_MODULE(Shop.Cart, ondemand)"),
        ("BEEHIVE_MODULE(Shop.Cart, async)", "BEEHIVE_MODULE(Shop.Cart, async, async)"),
        ("BEEHIVE_MODULE(Shop.Cart, async)", "BEEHIVE_MODULE(Shop.Cart, sync, async)"),
        ("BEEHIVE_MODULE(Shop.Cart, priority(1))", "BEEHIVE_MODULE(Shop.Cart, priority(1), priority(2))"),
        ("BEEHIVE_MODULE(Shop.Cart, priority(1))", "BEEHIVE_MODULE(Shop.Cart, priority(one))"),
        ("BEEHIVE_MODULE(Shop.Cart, depends(\"Shop.A\"))", "BEEHIVE_MODULE(Shop.Cart, depends(\"Shop.A|async=1\"))"),
        ("BeeHiveModule(Shop.Cart, basic, 1, async)", "BeeHiveModule(Shop.Cart, basic, 1, asink)"),
    ])
    func aBadAttributeDoesNotCompile(good: String, bad: String) throws {
        for toolchain in [Self.toolchains[0], Self.toolchains[3]] {
            _ = try Self.moduleSection("#include <beehive.h>\n\(good)\n", toolchain)
            #expect(throws: ELFImage.Failure.self, "\(toolchain): \(bad)") {
                try Self.moduleSection("#include <beehive.h>\n\(bad)\n", toolchain)
            }
        }
    }
}
