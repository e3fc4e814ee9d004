import Testing

@testable import PCSCReader

/// PC/SC 2.02 Part 10, section 2.2 (feature list) and 2.3 (TLV properties), as drivers answer.
@Suite("PC/SC Part 10 feature list and TLV properties")
struct Part10PropertiesTests {
    @Test("the control code of FEATURE_GET_TLV_PROPERTIES, most significant byte first")
    func featureList() {
        // A CCID reader's list: VERIFY_PIN_DIRECT (06), MODIFY_PIN_DIRECT (07), GET_TLV_PROPERTIES (12).
        let answer: [UInt8] = [
            0x06, 0x04, 0x42, 0x33, 0x00, 0x06, 0x07, 0x04, 0x42, 0x33, 0x00, 0x07, 0x12, 0x04, 0x42, 0x33, 0x00, 0x12,
        ]
        #expect(Part10Properties.controlCode(of: 0x12, in: answer) == 0x4233_0012)
        #expect(Part10Properties.controlCode(of: 0x13, in: answer) == nil)
        #expect(Part10Properties.controlCode(of: 0x12, in: Array(answer.prefix(16))) == nil)
        #expect(Part10Properties.controlCode(of: 0x12, in: [0x12, 0x02, 0x42, 0x33]) == nil)
        #expect(Part10Properties.controlCode(of: 0x12, in: []) == nil)
    }

    @Test("dwMaxAPDUDataSize, least significant byte first, among other properties")
    func properties() {
        // wLcdLayout (01, 2 bytes), bTimeOut2 (03, 1 byte), dwMaxAPDUDataSize (0A, 4 bytes: 65,536).
        let answer: [UInt8] = [0x01, 0x02, 0x00, 0x00, 0x03, 0x01, 0x00, 0x0A, 0x04, 0x00, 0x00, 0x01, 0x00]
        #expect(Part10Properties.property(0x0A, in: answer) == 65536)
        #expect(Part10Properties.property(0x01, in: answer) == 0)
        #expect(Part10Properties.property(0x0A, in: [0x0A, 0x04, 0x00, 0x00, 0x00, 0x00]) == 0)
        #expect(Part10Properties.property(0x0A, in: [0x0A, 0x04, 0x00, 0x01]) == nil)
        #expect(Part10Properties.property(0x0A, in: [0x0A, 0x03, 0x00, 0x01, 0x00]) == nil)
    }

    @Test("what each APDU length setting allows")
    func lengths() {
        #expect(PCSCAPDULength.automatic.maximumDataSize(reported: nil) == 256)
        #expect(PCSCAPDULength.automatic.maximumDataSize(reported: 0) == 256)
        #expect(PCSCAPDULength.automatic.maximumDataSize(reported: 261) == 261)
        #expect(PCSCAPDULength.automatic.maximumDataSize(reported: 1 << 20) == 65536)
        #expect(PCSCAPDULength.short.maximumDataSize(reported: 65536) == 256)
        #expect(PCSCAPDULength.extended.maximumDataSize(reported: nil) == 65536)
    }
}
