import Testing
@testable import BeeHiveRegistry

@Test func parsesModule() throws {
    let origin = RecordOrigin(objectPath: "/x", section: "beehive_mods", offset: 0)
    let r = RecordParser.parse(bytes: Array("beehive:1|module|A.B".utf8), origin: origin)
    #expect(try r.get().payload == .module(ModuleAnnotation(typeName: "A.B")))
}
