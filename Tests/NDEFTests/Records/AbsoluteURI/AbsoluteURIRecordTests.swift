import Foundation
import HexText
import NDEF
import Testing

@Suite("Absolute-URI record (TNF 3)")
struct AbsoluteURIRecordTests {
    @Test("builds the URI as TYPE and the data as payload")
    func builds() throws {
        let record = try AbsoluteURIRecord(uri: "urn:x", data: [0x01, 0x02]).makeRecord()
        #expect(record.typeNameFormat == .absoluteURI)
        #expect(try messageHex(record) == "d30502" + "75726e3a78" + "0102")
    }

    @Test("parses a record from a message")
    func parses() throws {
        let record = try decodedRecord("d31502" + Hex.encode(Array("https://example.com/t".utf8)) + "abcd")
        #expect(
            try AbsoluteURIRecord(parsing: record)
                == AbsoluteURIRecord(uri: "https://example.com/t", data: [0xAB, 0xCD]))
    }

    @Test("rejects a TYPE that is not UTF-8, and other formats")
    func rejects() throws {
        let bad = NFCNDEFPayload(format: .absoluteURI, type: [0x68, 0xFF], payload: [])
        #expect(throws: NDEFError(.invalidPayload, "")) { try AbsoluteURIRecord(parsing: bad) }
        let empty = NFCNDEFPayload(format: .absoluteURI, type: [], payload: [])
        #expect(throws: NDEFError(.invalidPayload, "")) { try AbsoluteURIRecord(parsing: empty) }
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try AbsoluteURIRecord(parsing: try record(.media, "urn:x", ""))
        }
    }

    @Test("the builder checks the URI length")
    func builderValidates() throws {
        #expect(throws: NDEFError(.invalidValue, "")) { try AbsoluteURIRecord(uri: "").makeRecord() }
        // NDEF 1.0, 3.2.6 and RFC 3986, 4.3: US-ASCII, a scheme, no fragment.
        for uri in ["http://h\u{E4}.example/", "/relative/path", "example.com", "http://e.com/#top", "a b:c"] {
            #expect(throws: NDEFError(.invalidValue, ""), "\(uri)") { try AbsoluteURIRecord(uri: uri).makeRecord() }
        }
        let long = "urn:" + String(repeating: "x", count: 252)
        #expect(throws: NDEFError(.invalidValue, "")) { try AbsoluteURIRecord(uri: long).makeRecord() }
        #expect(try AbsoluteURIRecord(uri: String(long.dropLast())).makeRecord().type.count == 255)
    }

    static let values: [AbsoluteURIRecord] = [
        AbsoluteURIRecord(uri: "https://example.com/type", data: [1, 2, 3]),
        AbsoluteURIRecord(uri: "urn:nfc:x", data: []),
        AbsoluteURIRecord(uri: "http://h%C3%A4.example/", data: Array(repeating: 0, count: 300)),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: AbsoluteURIRecord) throws {
        let record = try value.makeRecord()
        #expect(try AbsoluteURIRecord(parsing: record) == value)
        #expect(try AbsoluteURIRecord(parsing: try decodedRecord(try messageHex(record))) == value)
        #expect(try checkTruncations(AbsoluteURIRecord.self, record) == 0)
    }

    @Test("JSON value is {\"uri\", \"dataHex\"}", arguments: values)
    func json(value: AbsoluteURIRecord) throws {
        #expect(try jsonKeys(value) == ["uri", "dataHex"])
        #expect(try jsonObject(value)["dataHex"] as? String == Hex.encode(value.data))
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("description")
    func description() {
        #expect(AbsoluteURIRecord(uri: "urn:x", data: [1]).description == "Absolute URI urn:x (1 byte)")
    }
}
