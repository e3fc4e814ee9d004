import NFCSession
import TestSupport
import Testing

@testable import PCSCReader

/// PC/SC part 3 supplement 2.02 transparent sessions as the ACS ACR1252U API (5.3) documents
/// them: Manage Session 81h/82h, Transparent Exchange with Timer 5F46h and Transceive 95h; answers
/// C0h (status), 92h (valid bits), 96h (response status), 97h (ICC response).
@Suite("PC/SC 2.02 transparent exchange (pcsc-transparent profile)")
struct TransparentExchangeTests {
    let reader = "ACS ACR1252 1S CL Reader PICC 00 00"
    let page4 = hex("03 0F D1 01 0B 55 01 65 78 61 6D 70 6C 65 2E 63")

    @Test("session and exchange commands")
    func commands() throws {
        #expect(TransparentExchange.startSession == hex("FF C2 00 00 02 81 00"))
        #expect(TransparentExchange.endSession == hex("FF C2 00 00 02 82 00"))
        #expect(
            try TransparentExchange.command(for: [0x30, 0x04])
                == hex("FF C2 00 01 0B 5F 46 04 00 01 01 00 95 02 30 04 00"))
        let fastRead = [UInt8](repeating: 0x3A, count: 200)
        let long = try TransparentExchange.command(for: fastRead)
        #expect(Array(long.prefix(5)) == hex("FF C2 00 01 D2"))  // 7 + 3 + 200 = 210
        #expect(Array(long[12..<15]) == hex("95 81 C8"))
        #expect(long.count == 5 + 210 + 1)
        for bad in [[UInt8](), [UInt8](repeating: 0, count: 241)] {
            #expect(readerError { _ = try TransparentExchange.command(for: bad) }?.code == .invalidParameter)
        }
    }

    @Test("an ICC response is the tag's answer")
    func data() throws {
        let reply = hex("C0 03 00 90 00 92 01 00 96 02 00 00 97 10") + page4 + hex("90 00")
        #expect(try TransparentExchange.response(reply, to: [0x30, 0x04], readerName: reader) == .data(page4))
        let noFraming = hex("C0 03 00 90 00 97 02 80 80 90 00")
        #expect(
            try TransparentExchange.response(noFraming, to: hex("1B FF FF FF FF"), readerName: reader)
                == .data([0x80, 0x80]))
    }

    @Test("a one-byte ICC response with 4 valid bits is the ACK or NAK")
    func fourBit() throws {
        let ack = hex("C0 03 00 90 00 92 01 04 96 02 00 00 97 01 0A 90 00")
        #expect(try TransparentExchange.response(ack, to: hex("A2 04 01 02 03 04"), readerName: reader) == .ack)
        let nak = hex("C0 03 00 90 00 92 01 04 96 02 01 00 97 01 00 90 00")
        #expect(try TransparentExchange.response(nak, to: hex("A2 04 01 02 03 04"), readerName: reader) == .nak(0))
        let bare = hex("C0 03 00 90 00 97 01 0A 90 00")
        #expect(try TransparentExchange.response(bare, to: hex("A2 04 01 02 03 04"), readerName: reader) == .ack)
    }

    @Test("error statuses")
    func errors() {
        func code(_ reply: String) -> NFCReaderError.Code? {
            readerError { _ = try TransparentExchange.response(hex(reply), to: [0x30, 0x04], readerName: reader) }?.code
        }
        #expect(code("C0 03 01 64 01 90 00") == .tagConnectionLost)  // no response from the ICC
        #expect(code("C0 03 01 64 00 90 00") == .tagConnectionLost)  // no response from the IFD
        #expect(code("C0 03 00 90 00 92 01 00 96 02 00 00 90 00") == .tagConnectionLost)  // no 97h
        #expect(code("C0 03 01 6A 81 90 00") == .unsupportedFeature)
        #expect(code("6A 81") == .unsupportedFeature)
        #expect(code("C0 03 01 67 00 90 00") == .tagResponseError)
        #expect(code("C0 03 00 90 00 97 10 01 02 03 90 00") == .tagResponseError)  // value cut short
        #expect(code("C0 02 00 90 90 00") == .tagResponseError)  // C0 of 2 bytes
        #expect(code("C0 03 00 90 00 97 00 90 00") == .tagResponseError)  // empty answer
        #expect(code("90") == .tagConnectionLost)
        #expect(code("C0 03 00 90 00 97 02 01 02 6F 00") == .tagResponseError)
        let garbled = "C0 03 00 90 00 92 01 00 96 02 01 00 97 10 " + String(repeating: "00 ", count: 16) + "90 00"
        #expect(code(garbled) == .tagResponseError)
    }

    @Test("Manage Session answers")
    func sessionAnswers() {
        #expect(TransparentExchange.isSessionAnswerSuccessful(hex("C0 03 00 90 00 90 00")))
        #expect(TransparentExchange.isSessionAnswerSuccessful(hex("90 00")))
        #expect(!TransparentExchange.isSessionAnswerSuccessful(hex("C0 03 01 6A 81 90 00")))
        #expect(!TransparentExchange.isSessionAnswerSuccessful(hex("6A 81")))
        #expect(!TransparentExchange.isSessionAnswerSuccessful(hex("6D 00")))
        #expect(!TransparentExchange.isSessionAnswerSuccessful([]))
    }
}
