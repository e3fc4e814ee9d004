import NFCSession
import TestSupport
import Testing

@testable import PCSCReader

/// Frames checked against their CRC_A, and the 4-bit answers of NTAG213/215/216 table 23.
@Suite("CRC_A and 4-bit answers")
struct ShortFrameTests {
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
