@testable import BeeHiveMacros
@_spi(BeeHiveInternals) import BeeHiveRegistry
import CSectionShim
import Testing

/// `beehive.h` is the one source of the wire format: the registry's parser and sections take its constants, and
/// the Swift macros (a compiler plugin, which cannot import C) must write the same.
@Suite struct WireFormatTests {
    @Test func macrosWriteTheSectionsAndVersionOfTheHeader() {
        #expect(SectionRecord.modules == BEEHIVE_SECTION_MODULES)
        #expect(SectionRecord.services == BEEHIVE_SECTION_SERVICES)
        #expect(SectionRecord.routes == BEEHIVE_SECTION_ROUTES)
        #expect(SectionRecord.types == BEEHIVE_SECTION_TYPES)
        #expect(SectionName.types == BEEHIVE_SECTION_TYPES)
        #expect(SectionRecord.version == BEEHIVE_RECORD_VERSION)
        #expect(SectionName.all == [BEEHIVE_SECTION_MODULES, BEEHIVE_SECTION_SERVICES, BEEHIVE_SECTION_ROUTES])
        #expect(RecordParser.versionPrefix + RecordParser.currentVersion == BEEHIVE_RECORD_VERSION)
    }

    @Test func macrosAndParserNameTheDependencyAttributeAsTheHeader() {
        #expect(SectionRecord.dependsAttribute == BEEHIVE_ATTRIBUTE_DEPENDS)
        #expect(RecordParser.dependsAttribute.description == BEEHIVE_ATTRIBUTE_DEPENDS)
    }

    @Test func macrosAndParserNameTheOnDemandAttributeAsTheHeader() {
        #expect(SectionRecord.onDemandAttribute == BEEHIVE_ATTRIBUTE_ON_DEMAND)
        #expect(RecordParser.onDemandAttribute.description == BEEHIVE_ATTRIBUTE_ON_DEMAND)
    }

    @Test func macrosWriteTheNoteOfTheHeader() {
        #expect(SectionRecord.noteName == BEEHIVE_NOTE_NAME)
        #expect(SectionRecord.noteName.utf8.count + 1 == Int(BEEHIVE_NOTE_NAME_SIZE))
        #expect(SectionRecord.noteType == UInt32(BEEHIVE_NOTE_TYPE))
        #expect(SectionRecord.noteVersion == UInt32(BEEHIVE_NOTE_VERSION_WITHOUT_OFFSETS))
    }

    /// The macros and the registry hash a recorded type name the same way, or no reference would ever be found.
    @Test(arguments: ["Shop.ShopModule", "4Shop4CartV", "4Shop8CheckoutV5StepsO10FlowModuleC", "", "é"])
    func macrosAndRegistryHashTypeNamesAlike(name: String) {
        #expect(SectionRecord.hash(of: name) == TypeReferences.hash(name))
        #expect(SectionRecord.hash(of: name) != 0)
    }
}
