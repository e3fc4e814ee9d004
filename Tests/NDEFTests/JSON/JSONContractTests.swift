import Foundation
import NDEF
import TestSupport
import Testing

@Suite("JSON contract for messages and records")
struct JSONContractTests {
    private func json(_ message: NFCNDEFMessage) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(message), as: UTF8.self)
    }

    @Test("A raw record: tnf as an integer, lower-case hex fields, printable type, chunk count and sizes")
    func rawRecordShape() throws {
        let bytes = hex("b5 00 01 aa 56 00 02 bbcc")
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(
            try json(message)
                == #"{"records":[{"chunkSizes":[1,2],"chunks":2,"idHex":"","payloadHex":"aabbcc","tnf":5,"typeHex":""}]}"#
        )
        let media = NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcExternal, type: "example.com:x", identifier: [0xAB], payload: [0xDE, 0xAD])
        ])
        let text = try json(media)
        #expect(text.contains(#""tnf":4"#))
        #expect(text.contains(#""type":"example.com:x""#))
        #expect(text.contains(#""typeHex":"6578616d706c652e636f6d3a78""#))
        #expect(text.contains(#""idHex":"ab""#))
        #expect(text.contains(#""payloadHex":"dead""#))
    }

    @Test("Decoding JSON: payloadHex wins; type from typeHex or type; upper-case hex accepted")
    func decodeRaw() throws {
        let input =
            #"{"records":[{"tnf":2,"type":"text/plain","payloadHex":"4869"},{"tnf":5,"typeHex":"","payloadHex":"AB"}]}"#
        let message = try JSONDecoder().decode(NFCNDEFMessage.self, from: Data(input.utf8))
        #expect(message.records.count == 2)
        #expect(message.records[0].typeString == "text/plain")
        #expect(Array(message.records[0].payload) == Array("Hi".utf8))
        #expect(Array(message.records[1].payload) == [0xAB])
    }

    @Test(
        "Bad JSON is refused with a DecodingError, never a trap",
        arguments: [
            #"{"records":[{"tnf":9}]}"#,
            #"{"records":[{"tnf":1,"typeHex":"5","payloadHex":""}]}"#,
            #"{"records":[{"tnf":1,"typeHex":"zz"}]}"#,
            #"{"records":[{"tnf":5,"payloadHex":"0g"}]}"#,
            #"{"records":[{"tnf":1,"type":"no-such-type","value":{}}]}"#,
            #"{"records":{}}"#,
        ])
    func badJSON(_ input: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NFCNDEFMessage.self, from: Data(input.utf8)) }
    }

    @Test("Messages survive a JSON round trip")
    func roundTrip() throws {
        let message = try NFCNDEFMessage(decoding: hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff"))
        let data = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(NFCNDEFMessage.self, from: data) == message)
    }
}
