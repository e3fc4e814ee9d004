import NFCSession
import NFCWireFormat
import TestSupport
import Testing

@testable import PCSCReader

/// ACR122U API section 6 (Direct Transmit) with PN532 InCommunicateThru (PN532 user manual 7.3.9)
/// and the PN532 error codes (7.1).
@Suite("ACR122U direct transmit (acr122u profile)")
struct ACR122UDirectTransmitTests {
    let page4 = hex("03 0F D1 01 0B 55 01 65 78 61 6D 70 6C 65 2E 63")

    @Test("a frame travels as FF 00 00 00 Lc D4 42 frame")
    func commands() throws {
        #expect(try ACR122UDirectTransmit.command(for: [0x30, 0x04]) == hex("FF 00 00 00 04 D4 42 30 04"))
        #expect(
            try ACR122UDirectTransmit.command(for: hex("1B 01 02 03 04"))
                == hex("FF 00 00 00 07 D4 42 1B 01 02 03 04"))
        let longest = [UInt8](repeating: 0x30, count: 253)
        #expect(try ACR122UDirectTransmit.command(for: longest).count == 5 + 255)
        for bad in [[UInt8](), [UInt8](repeating: 0, count: 254)] {
            #expect(readerError { _ = try ACR122UDirectTransmit.command(for: bad) }?.code == .invalidParameter)
        }
    }

    @Test("status 00h with data: stripped by the reader, or checked and stripped by the host")
    func data() throws {
        let reply = hex("D5 43 00") + page4 + hex("90 00")
        #expect(try ACR122UDirectTransmit.response(reply, to: [0x30, 0x04], crcMode: .reader) == .data(page4))
        let withCRC = hex("D5 43 00") + page4 + CRCA.checksum(page4) + hex("90 00")
        #expect(try ACR122UDirectTransmit.response(withCRC, to: [0x30, 0x04], crcMode: .host) == .data(page4))
        // PWD_AUTH answered with the PACK (nfc-facts §6: D5 43 00 PK0 PK1 90 00).
        #expect(
            try ACR122UDirectTransmit.response(hex("D5 43 00 80 80 90 00"), to: hex("1B FF FF FF FF"), crcMode: .reader)
                == .data([0x80, 0x80]))
        // The MI bit (40h) of the status byte is not an error.
        #expect(
            try ACR122UDirectTransmit.response(hex("D5 43 40 01 02 90 00"), to: [0x60], crcMode: .reader)
                == .data([0x01, 0x02]))
    }

    @Test("a wrong CRC in host mode is a response error")
    func badCRC() {
        var corrupted = hex("D5 43 00") + page4 + CRCA.checksum(page4) + hex("90 00")
        corrupted[5] ^= 0x01
        let error = readerError { _ = try ACR122UDirectTransmit.response(corrupted, to: [0x30, 0x04], crcMode: .host) }
        #expect(error?.code == .tagResponseError)
        let tooShort = readerError {
            _ = try ACR122UDirectTransmit.response(hex("D5 43 00 01 02 90 00"), to: [0x30, 0x04], crcMode: .host)
        }
        #expect(tooShort?.code == .tagResponseError)
    }

    @Test(
        "a one-byte answer is the 4-bit ACK or NAK in both CRC modes",
        arguments: [
            ("0A", NFCRawResponse.ack), ("00", .nak(0x0)), ("01", .nak(0x1)), ("04", .nak(0x4)), ("05", .nak(0x5)),
            ("FA", .ack),
        ])
    func fourBit(byte: String, expected: NFCRawResponse) throws {
        for mode in [ACR122UDirectTransmit.CRCMode.reader, .host] {
            let reply = hex("D5 43 00 \(byte) 90 00")
            #expect(try ACR122UDirectTransmit.response(reply, to: hex("A2 04 01 02 03 04"), crcMode: mode) == expected)
        }
    }

    @Test(
        "PN532 error statuses",
        arguments: [
            ("01", NFCReaderError.Code.tagConnectionLost), ("2B", .tagConnectionLost), ("29", .tagConnectionLost),
            ("0A", .tagConnectionLost), ("02", .tagResponseError), ("03", .tagResponseError), ("13", .tagResponseError),
            ("27", .tagResponseError), ("3E", .tagResponseError),
        ])
    func statuses(status: String, expected: NFCReaderError.Code) {
        let error = readerError {
            _ = try ACR122UDirectTransmit.response(hex("D5 43 \(status) 90 00"), to: [0x30, 0x04], crcMode: .host)
        }
        #expect(error?.code == expected)
        #expect(error?.reason.contains("PN532 status \(status)h") == true)
    }

    @Test("with the reader checking CRC, status 02h says a 4-bit answer may hide behind it")
    func crcErrorInReaderMode() {
        let error = readerError {
            _ = try ACR122UDirectTransmit.response(
                hex("D5 43 02 90 00"), to: hex("A2 04 01 02 03 04"), crcMode: .reader)
        }
        #expect(error?.code == .tagResponseError)
        #expect(error?.reason.contains("4-bit ACK or NAK") == true)
    }

    @Test("reader statuses and malformed answers")
    func readerStatuses() {
        func code(_ reply: String) -> NFCReaderError.Code? {
            readerError { _ = try ACR122UDirectTransmit.response(hex(reply), to: [0x30, 0x04], crcMode: .reader) }?.code
        }
        #expect(code("63 00") == .tagConnectionLost)
        #expect(code("6A 81") == .unsupportedFeature)
        #expect(code("6F 00") == .tagResponseError)
        #expect(code("") == .tagConnectionLost)
        #expect(code("00") == .tagConnectionLost)
        #expect(code("90 00") == .tagResponseError)
        #expect(code("D5 41 00 90 00") == .tagResponseError)
        #expect(code("D5 43 00 90 00") == .tagResponseError)
    }
}
