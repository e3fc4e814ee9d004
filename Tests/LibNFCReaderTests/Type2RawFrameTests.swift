import NFCSession
import Testing

@testable import LibNFCReader

/// Type 2 frames in libnfc's raw mode: the host's CRC_A (ISO/IEC 14443-3 annex B) and the
/// answers a tag gives (NTAG213/215/216 datasheet 9.3, table 23: 4-bit ACK Ah, NAKs 0h 1h 4h 5h).
@Suite("Type 2 frames in raw mode")
struct Type2RawFrameTests {
    @Test(
        "CRC_A of well-known commands (ISO/IEC 14443-3 annex B)",
        arguments: [
            ([0x30, 0x00], [0x02, 0xA8]),  // READ page 0
            ([0x60], [0xF8, 0x32]),  // GET_VERSION
            ([0x50, 0x00], [0x57, 0xCD]),  // HLTA
            ([0x00, 0x00], [0xA0, 0x1E]),  // ISO/IEC 14443-3 annex B.4 example 1
            ([0x12, 0x34], [0x26, 0xCF]),  // ISO/IEC 14443-3 annex B.4 example 2
        ] as [([UInt8], [UInt8])])
    func crc(_ frame: [UInt8], _ crc: [UInt8]) {
        #expect(Type2RawFrame.crc(frame) == crc)
        #expect(Type2RawFrame.command(frame) == frame + crc)
    }

    @Test("the CRC_A of nothing is the preset 6363h")
    func emptyCRC() {
        #expect(Type2RawFrame.crc([]) == [0x63, 0x63])
    }

    @Test("one byte is a 4-bit answer: Ah is ACK, anything else a NAK with its code")
    func fourBitAnswers() throws {
        #expect(try Type2RawFrame.response([0x0A], to: [0xA2, 4, 1, 2, 3, 4]) == .ack)
        for code: UInt8 in [0x0, 0x1, 0x4, 0x5] {
            #expect(try Type2RawFrame.response([code], to: [0x1B, 1, 2, 3, 4]) == .nak(code))
        }
        // Only the 4 bits received count.
        #expect(try Type2RawFrame.response([0xFA], to: [0xA2, 4, 1, 2, 3, 4]) == .ack)
    }

    @Test("data comes back without its CRC_A when the CRC matches")
    func data() throws {
        let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
        let answer = version + Type2RawFrame.crc(version)
        #expect(try Type2RawFrame.response(answer, to: [0x60]) == .data(version))
        let pack: [UInt8] = [0x12, 0x34]
        #expect(try Type2RawFrame.response(pack + Type2RawFrame.crc(pack), to: [0x1B, 1, 2, 3, 4]) == .data(pack))
    }

    @Test("a wrong CRC_A, or two bytes, are tag-response errors; no byte is tag-connection-lost")
    func garbled() {
        let data: [UInt8] = Array(0..<16)
        var corrupted = data + Type2RawFrame.crc(data)
        corrupted[3] ^= 0x01
        #expect(throws: NFCReaderError(.tagResponseError, "")) { try Type2RawFrame.response(corrupted, to: [0x30, 4]) }
        #expect(throws: NFCReaderError(.tagResponseError, "")) { try Type2RawFrame.response([0x12, 0x34], to: [0x60]) }
        #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try Type2RawFrame.response([], to: [0x60]) }
    }
}
