import NFCWireFormat
import TestSupport
import Testing

/// CRC_A (ISO/IEC 14443-3 annex B), BER-TLV data objects (ISO/IEC 7816-4 5.2.2.1 as PC/SC part 3
/// uses them) and the ACR122U's pseudo-APDUs (ACR122U API 2.04).
@Suite struct FramingTests {
    @Test(
        "CRC_A of known frames",
        arguments: [
            ("30 00", "02 A8"),  // READ page 0, as every reader trace shows it
            ("50 00", "57 CD"),  // HLTA
            ("00 00", "A0 1E"),  // ISO/IEC 14443-3 annex B example
            ("31 32 33 34 35 36 37 38 39", "05 BF"),  // "123456789": CRC-16/ISO-IEC-14443-3-A check value BF05h
        ])
    func crc(frame: String, crc: String) {
        #expect(CRCA.checksum(hex(frame)) == hex(crc))
    }

    @Test("CRC_A appended and stripped; a wrong or missing CRC strips to nothing")
    func crcStripping() {
        #expect(CRCA.appending(to: hex("50 00")) == hex("50 00 57 CD"))
        #expect(CRCA.stripping(hex("50 00 57 CD")) == hex("50 00"))
        #expect(CRCA.stripping(hex("50 00 57 CE")) == nil)
        #expect(CRCA.stripping(hex("57 CD")) == nil)
    }

    @Test("BER-TLV: one- and two-byte tags, long lengths, padding, truncation")
    func berTLV() throws {
        let objects = try #require(BERTLV.objects(in: hex("5F 46 04 00 01 01 00 97 81 02 AA BB 00 C0 03 00 90 00")))
        #expect(
            objects == [
                BERTLV.DataObject(tag: 0x5F46, value: hex("00 01 01 00")),
                BERTLV.DataObject(tag: 0x97, value: hex("AA BB")),
                BERTLV.DataObject(tag: 0xC0, value: hex("00 90 00")),
            ])
        #expect(BERTLV.length(0x7F) == [0x7F])
        #expect(BERTLV.length(0x80) == [0x81, 0x80])
        #expect(BERTLV.length(0x1234) == [0x82, 0x12, 0x34])
        let valid = hex("97 82 00 02 AA BB")
        #expect(BERTLV.objects(in: valid) == [BERTLV.DataObject(tag: 0x97, value: hex("AA BB"))])
        for end in 1..<valid.count {
            #expect(BERTLV.objects(in: Array(valid.prefix(end))) == nil, "\(end)")
        }
        #expect(BERTLV.objects(in: hex("97 83 00 00 01 AA")) == nil)
        #expect(BERTLV.objects(in: hex("5F")) == nil)
        #expect(BERTLV.encode(tag: 0x5F51, hex("3B 8F")) == hex("5F 51 02 3B 8F"))
        for object in objects {
            var reader = BERTLV.Reader(object.encoded)
            #expect(reader.next() == object && reader.isAtEnd)
        }
    }

    @Test("ACR122U pseudo-APDUs and the PN532 commands they carry")
    func acr122u() {
        #expect(ACR122UPseudoAPDU.inCommunicateThru([0x30, 0x04]) == hex("FF 00 00 00 04 D4 42 30 04"))
        #expect(ACR122UPseudoAPDU.inCommunicateThru([]) == nil)
        #expect(ACR122UPseudoAPDU.inCommunicateThru([UInt8](repeating: 0, count: 254)) == nil)
        #expect(ACR122UPseudoAPDU.inCommunicateThru([UInt8](repeating: 0, count: 253))?.count == 5 + 255)
        #expect(ACR122UPseudoAPDU.readRegister(0x6303) == hex("FF 00 00 00 04 D4 06 63 03"))
        #expect(ACR122UPseudoAPDU.writeRegister(0x6303, 0x00) == hex("FF 00 00 00 05 D4 08 63 03 00"))
        #expect(ACR122UPseudoAPDU.registerValue(hex("D5 07 80 90 00")) == 0x80)
        #expect(ACR122UPseudoAPDU.registerValue(hex("6A 81")) == nil)
        #expect(ACR122UPseudoAPDU.registerValue(hex("D5 07 80 63 00")) == nil)
        #expect(ACR122UPseudoAPDU.isRegisterWritten(hex("D5 09 90 00")))
        #expect(!ACR122UPseudoAPDU.isRegisterWritten(hex("63 00")))
        #expect(ACR122UPseudoAPDU.getFirmwareVersion == hex("FF 00 48 00 00"))
        #expect(ACR122UPseudoAPDU.firmwareVersion(Array("ACR122U207".utf8)) == "ACR122U207")
        #expect(ACR122UPseudoAPDU.firmwareVersion(Array("ACR122U215".utf8) + [0x90, 0x00]) == "ACR122U215")
        #expect(ACR122UPseudoAPDU.firmwareVersion(hex("6A 81")) == nil)
        #expect(ACR122UPseudoAPDU.firmwareVersion([]) == nil)
        #expect(ACR122UPseudoAPDU.getResponse(length: 0x15) == hex("FF C0 00 00 15"))
        #expect(PN532Command.errorNames[0x01] == "timeout")
    }
}
