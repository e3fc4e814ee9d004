import TestSupport
import Testing

@testable import SimulatorBridges

/// The byte-level pieces: CRC_A, pseudo-APDU parsing and the vpcd message framing.
@Suite struct WireFormatTests {
    @Test("CRC_A (ISO/IEC 14443-3 Annex B: 00 00 -> A0 1E, 12 34 -> 26 CF) and the frames of the NTAG datasheet")
    func crcA() {
        #expect(CRCA.checksum(hex("00 00")) == hex("A0 1E"))
        #expect(CRCA.checksum(hex("12 34")) == hex("26 CF"))
        #expect(CRCA.checksum(hex("30 00")) == hex("02 A8"))
        #expect(CRCA.checksum(hex("50 00")) == hex("57 CD"))
        #expect(CRCA.stripping(hex("50 00 57 CD")) == hex("50 00"))
        #expect(CRCA.stripping(hex("50 00 57 CE")) == nil)
        #expect(CRCA.stripping(hex("57 CD")) == nil)
    }

    @Test("Pseudo-APDUs: the four short cases; Lc disagreeing with the length or the extended form make none")
    func commandAPDU() throws {
        let case1 = try #require(ReaderCommandAPDU(hex("FF CA 00 00")))
        #expect(case1.expectedLength == nil && !case1.hasData)
        let case2 = try #require(ReaderCommandAPDU(hex("FF CA 00 00 00")))
        #expect(case2.expectedLength == 256 && case2.asksForAll)
        let case3 = try #require(ReaderCommandAPDU(hex("FF D6 00 04 04 01020304")))
        #expect(case3.data == hex("01020304") && case3.expectedLength == nil)
        let case4 = try #require(ReaderCommandAPDU(hex("FF C2 00 01 03 950160 00")))
        #expect(case4.data == hex("950160") && case4.expectedLength == 256)
        #expect(ReaderCommandAPDU(hex("FF CA 00")) == nil)
        #expect(ReaderCommandAPDU(hex("FF D6 00 04 05 01020304")) == nil)
        #expect(ReaderCommandAPDU(hex("FF D6 00 04 00 0004 01020304")) == nil)
    }

    @Test("vpcd control messages 00, 01, 02, 04; anything longer is an APDU")
    func messages() {
        #expect(VirtualPCDMessage(payload: [0x00]) == .powerOff)
        #expect(VirtualPCDMessage(payload: [0x01]) == .powerOn)
        #expect(VirtualPCDMessage(payload: [0x02]) == .reset)
        #expect(VirtualPCDMessage(payload: [0x04]) == .getATR)
        #expect(VirtualPCDMessage(payload: [0x03]) == .unknownControl(0x03))
        #expect(VirtualPCDMessage(payload: hex("FFCA0000")) == .apdu(hex("FFCA0000")))
    }

    @Test("vpcd framing: a 2-byte big-endian length, never an empty or over-long message")
    func framing() {
        #expect(VirtualPCDMessage.framed(hex("9000")) == hex("0002 9000"))
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 1, count: 300))?.prefix(2) == [0x01, 0x2C])
        #expect(VirtualPCDMessage.framed([]) == nil)
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 0, count: 65_536)) == nil)
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 0, count: 65_535)) != nil)
    }
}
