import TagMemory
import TestSupport
import Testing

/// The capability container (NFC Forum Type 2 Tag 1.1, 6.1).
@Suite("Type 2 capability container")
struct Type2CapabilityContainerTests {
    @Test("6.1: E1 10 12 00 is NDEF version 1.0, 144 bytes, read and write granted")
    func ntag213() throws {
        let cc = try Type2CapabilityContainer(bytes: hex("e1101200"))
        #expect(cc.isNDEFFormatted && cc.isVersionSupported && cc.problem == nil)
        #expect(cc.majorVersion == 1 && cc.minorVersion == 0 && cc.dataAreaSize == 144)
        #expect(cc.readAccess == .granted && cc.writeAccess == .granted)
        #expect(cc.bytes == hex("e1101200"))
    }

    @Test("6.1: access nibbles: 0 granted, 1-7 reserved, 8-E proprietary, F denied")
    func accessNibbles() throws {
        #expect(try Type2CapabilityContainer(bytes: hex("e1103e0f")).writeAccess == .denied)
        #expect(try Type2CapabilityContainer(bytes: hex("e1103e08")).writeAccess == .proprietary(8))
        #expect(try Type2CapabilityContainer(bytes: hex("e1103e88")).readAccess == .proprietary(8))
        #expect(try Type2CapabilityContainer(bytes: hex("e1103e30")).readAccess == .reserved(3))
        for nibble in UInt8(0)...15 {
            #expect(Type2CapabilityContainer.Access(nibble: nibble).nibble == nibble)
        }
    }

    @Test("6.1, 6.1.1: a wrong magic number or an unknown major version is not an NDEF tag; a newer minor is")
    func versions() throws {
        #expect(try Type2CapabilityContainer(bytes: hex("00000000")).problem?.code == .notFormatted)
        #expect(try Type2CapabilityContainer(bytes: hex("e2101200")).problem?.code == .notFormatted)
        #expect(try Type2CapabilityContainer(bytes: hex("e1201200")).problem?.code == .notFormatted)
        #expect(try Type2CapabilityContainer(bytes: hex("e1001200")).problem?.code == .notFormatted)
        #expect(try Type2CapabilityContainer(bytes: hex("e1151200")).problem == nil)
    }

    @Test("Built from fields, and bounds on the fields")
    func build() throws {
        let cc = try Type2CapabilityContainer(dataAreaSize: 496, writeAccess: .denied)
        #expect(cc.bytes == hex("e1103e0f"))
        #expect(try Type2CapabilityContainer(dataAreaSize: 2040).bytes == hex("e110ff00"))
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try Type2CapabilityContainer(dataAreaSize: 2048) }
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try Type2CapabilityContainer(dataAreaSize: 100) }
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try Type2CapabilityContainer(majorVersion: 16, dataAreaSize: 8)
        }
        #expect(throws: TagMemoryError(.truncatedImage, "")) { try Type2CapabilityContainer(bytes: hex("e110")) }
    }
}
