import Foundation
import NDEF
import NDEFFoundation
import TestSupport
import Testing

@Suite("Foundation conveniences")
struct FoundationTests {
    @Test("Data in, Data out")
    func dataRoundTrip() throws {
        let data = Data(hex("d1 01 0d 55 02 70726f786d61726b2e636f6d"))
        let message = try NFCNDEFMessage(data: data)
        #expect(message.records.first?.payloadData == Data(hex("02 70726f786d61726b2e636f6d")))
        #expect(try message.encodedData() == data)
    }

    @Test("CoreNFC-shaped initializer from Data fields")
    func payloadFromData() throws {
        let record = NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: Data([1, 2]))
        #expect(try NFCNDEFMessage(records: [record]).encoded() == hex("d2 03 02 612f62 0102"))
    }

    @Test("Malformed Data gives the typed error")
    func malformed() {
        #expect(throws: NDEFError(.truncated, "")) { try NFCNDEFMessage(data: Data([0xD1, 0x01, 0x05, 0x55])) }
    }
}
