import NFCSession
import TestSupport
import Testing

@testable import PCSCReader

/// ISO/IEC 14443-3 annex B (CRC_A) and the 4-bit answers of NTAG213/215/216 table 23.
@Suite("CRC_A and 4-bit answers")
struct ShortFrameTests {
    @Test(
        "CRC_A of known frames",
        arguments: [
            ("30 00", "02 A8"),  // READ page 0, as every reader trace shows it
            ("50 00", "57 CD"),  // HLTA
            ("00 00", "A0 1E"),  // ISO/IEC 14443-3 annex B example
            ("31 32 33 34 35 36 37 38 39", "05 BF"),  // "123456789": CRC-16/ISO-IEC-14443-3-A check value BF05h
        ])
    func crc(frame: String, crc: String) {
        #expect(ShortFrame.crcA(hex(frame)) == hex(crc))
    }

    @Test("stripping a CRC checks it")
    func strip() throws {
        #expect(try ShortFrame.strippingCRC(hex("30 00 02 A8"), command: "x") == hex("30 00"))
        #expect(
            readerError { _ = try ShortFrame.strippingCRC(hex("30 00 02 A9"), command: "x") }?.code == .tagResponseError
        )
        #expect(readerError { _ = try ShortFrame.strippingCRC(hex("02 A8"), command: "x") }?.code == .tagResponseError)
    }

    @Test("Ah is ACK, every other low nibble a NAK")
    func answers() {
        #expect(ShortFrame.answer(0x0A) == .ack)
        for value in UInt8(0)...15 where value != 0x0A {
            #expect(ShortFrame.answer(value) == .nak(value))
            #expect(ShortFrame.answer(0xF0 | value) == .nak(value))
        }
    }
}
