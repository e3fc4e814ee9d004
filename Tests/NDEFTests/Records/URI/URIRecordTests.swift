import Foundation
import HexText
import NDEF
import Testing

@Suite("URI record (NFC Forum URI RTD 1.0)")
struct URIRecordTests {
    /// URI RTD 1.0, table 3, typed out separately from the implementation's table.
    static let table: [(UInt8, String)] = [
        (0x00, ""), (0x01, "http://www."), (0x02, "https://www."), (0x03, "http://"), (0x04, "https://"),
        (0x05, "tel:"), (0x06, "mailto:"), (0x07, "ftp://anonymous:anonymous@"), (0x08, "ftp://ftp."),
        (0x09, "ftps://"), (0x0A, "sftp://"), (0x0B, "smb://"), (0x0C, "nfs://"), (0x0D, "ftp://"),
        (0x0E, "dav://"), (0x0F, "news:"), (0x10, "telnet://"), (0x11, "imap:"), (0x12, "rtsp://"),
        (0x13, "urn:"), (0x14, "pop:"), (0x15, "sip:"), (0x16, "sips:"), (0x17, "tftp:"), (0x18, "btspp://"),
        (0x19, "btl2cap://"), (0x1A, "btgoep://"), (0x1B, "tcpobex://"), (0x1C, "irdaobex://"), (0x1D, "file://"),
        (0x1E, "urn:epc:id:"), (0x1F, "urn:epc:tag:"), (0x20, "urn:epc:pat:"), (0x21, "urn:epc:raw:"),
        (0x22, "urn:epc:"), (0x23, "urn:nfc:"),
    ]

    @Test("the prefix table has the 36 codes of URI RTD 1.0, table 3")
    func prefixTable() {
        #expect(URIRecord.prefixes.count == 36)
        for (code, prefix) in Self.table {
            #expect(URIRecord.prefix(forCode: code) == prefix, "code \(code)")
        }
        #expect(URIRecord.prefix(forCode: 0x24) == nil)
        #expect(URIRecord.prefix(forCode: 0xFF) == nil)
    }

    @Test("builds the URI RTD 1.0 appendix A examples byte for byte")
    func buildsSpecExamples() throws {
        #expect(try messageHex(URIRecord(uri: "http://www.nfc.com").makeRecord()) == "d1010855016e66632e636f6d")
        #expect(
            try messageHex(URIRecord(uri: "tel:+35891234567").makeRecord()) == "d1010d55052b3335383931323334353637"
        )
        #expect(
            try messageHex(URIRecord(uri: "mms://example.com/download.wmv").makeRecord())
                == "d1011f5500" + Hex.encode(Array("mms://example.com/download.wmv".utf8))
        )
    }

    @Test("expands every identifier code", arguments: table)
    func expands(code: UInt8, prefix: String) throws {
        let payload = [code] + Array("nfcpy".utf8)
        let value = try URIRecord(parsing: NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: payload))
        #expect(value.uri == prefix + "nfcpy")
    }

    @Test("abbreviates with the longest matching prefix", arguments: table)
    func abbreviates(code: UInt8, prefix: String) throws {
        // "x" after the prefix never extends it into a longer one.
        let value = URIRecord(uri: prefix + "x")
        #expect(value.prefixCode == code)
        let record = try value.makeRecord()
        #expect(Array(record.payload) == [code] + Array("x".utf8))
    }

    @Test(
        "picks the longest of overlapping prefixes",
        arguments: [
            ("urn:epc:id:123", UInt8(0x1E), "123"),
            ("urn:epc:other", 0x22, "other"),
            ("urn:other", 0x13, "other"),
            ("ftp://anonymous:anonymous@host", 0x07, "host"),
            ("ftp://ftp.host", 0x08, "host"),
            ("ftp://host", 0x0D, "host"),
            ("https://www.example.com", 0x02, "example.com"),
            ("https://example.com", 0x04, "example.com"),
            ("HTTP://EXAMPLE.COM", 0x00, "HTTP://EXAMPLE.COM"),  // prefixes match case-sensitively
            ("", 0x00, ""),
        ]
    )
    func longestPrefix(uri: String, code: UInt8, rest: String) throws {
        let record = try URIRecord(uri: uri).makeRecord()
        #expect(Array(record.payload) == [code] + Array(rest.utf8))
    }

    @Test("reserved codes 0x24-0xFF read as no prefix", arguments: [UInt8(0x24), 0x80, 0xFF])
    func reservedCodes(code: UInt8) throws {
        let value = try URIRecord(parsing: NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [code, 0x61]))
        #expect(value.uri == "a")
    }

    @Test(
        "rejects malformed payloads",
        arguments: [
            ("", 0),  // no identifier code
            ("0380", 1),  // a continuation byte alone
            ("01616263ff", 4),
            ("04e282", 1),  // cut inside a sequence
            ("00c0af", 1),  // overlong
            // RFC 3986/3987: no control characters in a URI (ndeflib's "0300" vector).
            ("0300", 1),
            ("04657861 6d706c65 0a2e636f6d", 8),  // a line feed inside
            ("007f", 1),  // DEL
        ]
    )
    func rejects(payload: String, offset: Int) throws {
        let record = try wellKnown("U", payload)
        let error = ndefError { _ = try URIRecord(parsing: record) }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == offset)
    }

    @Test("the builder refuses control characters", arguments: ["http://a\u{0}b", "tel:1\n2", "x\u{7F}", "\t"])
    func builderRefusesControls(uri: String) {
        #expect(throws: NDEFError(.invalidValue, "")) { try URIRecord(uri: uri).makeRecord() }
        #expect(NFCNDEFPayload.wellKnownTypeURIPayload(string: uri) == nil)
    }

    @Test("rejects a record of another type")
    func rejectsOtherType() throws {
        #expect(throws: NDEFError(.wrongRecordType, "")) { try URIRecord(parsing: try wellKnown("u", "00")) }
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try URIRecord(parsing: try record(.absoluteURI, "U", "00"))
        }
    }

    static let values: [URIRecord] = [
        URIRecord(uri: "http://www.nfc.com"),
        URIRecord(uri: "tel:+35891234567"),
        URIRecord(uri: "mms://example.com/download.wmv"),
        URIRecord(uri: "http://www.h\u{E4}\u{E4}y\u{F6}.com/~user/"),
        URIRecord(uri: "urn:nfc:wkt:U"),
        URIRecord(uri: "mailto:someone@example.com?subject=%20hi"),
        URIRecord(uri: ""),
        URIRecord(uri: "https://example.com/" + String(repeating: "path/", count: 60)),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: URIRecord) throws {
        let record = try value.makeRecord()
        #expect(try URIRecord(parsing: record) == value)
        #expect(try URIRecord(parsing: try decodedRecord(try messageHex(record))) == value)
    }

    @Test("every truncated payload parses or throws invalidPayload", arguments: values)
    func truncations(value: URIRecord) throws {
        let failures = try checkTruncations(URIRecord.self, try value.makeRecord())
        #expect(failures >= 1)  // at least the empty payload
    }

    @Test("JSON value is {\"uri\": ...}", arguments: values)
    func json(value: URIRecord) throws {
        #expect(try jsonKeys(value) == ["uri"])
        #expect(try jsonObject(value)["uri"] as? String == value.uri)
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("description")
    func description() {
        #expect(URIRecord(uri: "https://example.com").description == "URI: https://example.com")
    }
}
