import Foundation
import HexText
import NDEF
import Testing

@Suite("Media record (TNF 2, RFC 2046)")
struct MediaRecordTests {
    @Test("builds the media type as TYPE and the data as payload")
    func builds() throws {
        let record = try MediaRecord(mediaType: "text/plain", text: "hi").makeRecord()
        #expect(record.typeNameFormat == .media)
        #expect(try messageHex(record) == "d20a02" + "746578742f706c61696e" + "6869")
    }

    @Test(
        "text is given for textual types with valid UTF-8",
        arguments: [
            ("text/plain", true),
            ("TEXT/Plain", true),
            ("text/vcard", true),
            ("text/plain; charset=utf-8", true),
            ("application/json", true),
            ("Application/JSON", true),
            ("application/ld+json", true),
            ("image/svg+xml", true),
            ("application/vnd.example+XML", true),
            ("application/octet-stream", false),
            ("image/png", false),
            ("application/jsonp", false),
            ("application/xml", false),
        ]
    )
    func textual(mediaType: String, textual: Bool) throws {
        let value = try MediaRecord(parsing: try record(.media, mediaType, "68c3a9"))
        #expect(value.isTextual == textual)
        #expect(value.text == (textual ? "h\u{E9}" : nil))
        let invalid = try MediaRecord(parsing: try record(.media, mediaType, "68ff"))
        #expect(invalid.text == nil)
    }

    @Test(
        "rejects records whose TYPE is not a media type",
        arguments: [
            "", "text", "text/", "/plain", "text/plain/x", "te xt/plain", "text/pl ain", "t\u{E9}xt/plain", "a\u{1}/b",
        ]
    )
    func rejectsBadTypes(type: String) throws {
        let bad = NFCNDEFPayload(format: .media, type: Array(type.utf8)[...], payload: [1])
        #expect(throws: NDEFError(.invalidPayload, "")) { try MediaRecord(parsing: bad) }
        #expect(throws: NDEFError(.invalidValue, "")) { try MediaRecord(mediaType: type, data: [1]).makeRecord() }
    }

    @Test("the builder accepts parameters and rejects an overlong type")
    func builderLimits() throws {
        #expect(try MediaRecord(mediaType: "text/plain; charset=utf-8", data: []).makeRecord().type.count == 25)
        let long = "application/" + String(repeating: "x", count: 243)
        #expect(try MediaRecord(mediaType: long, data: []).makeRecord().type.count == 255)
        #expect(throws: NDEFError(.invalidValue, "")) { try MediaRecord(mediaType: long + "x", data: []).makeRecord() }
    }

    @Test("rejects records of another format")
    func rejectsOtherFormat() throws {
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try MediaRecord(parsing: try record(.nfcExternal, "a/b", ""))
        }
    }

    static let values: [MediaRecord] = [
        MediaRecord(mediaType: "text/plain", text: "Hello"),
        MediaRecord(mediaType: "text/vcard", text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n"),
        MediaRecord(mediaType: "application/json", text: #"{"a":1}"#),
        MediaRecord(mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47]),
        MediaRecord(mediaType: "application/octet-stream", data: []),
        MediaRecord(mediaType: "text/plain", data: [0xFF, 0xFE]),
        MediaRecord(mediaType: "application/vnd.example", data: Array(repeating: 7, count: 400)),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: MediaRecord) throws {
        let record = try value.makeRecord()
        #expect(try MediaRecord(parsing: record) == value)
        #expect(try MediaRecord(parsing: try decodedRecord(try messageHex(record))) == value)
    }

    @Test("every truncated payload parses (the payload is opaque)", arguments: values)
    func truncations(value: MediaRecord) throws {
        #expect(try checkTruncations(MediaRecord.self, try value.makeRecord()) == 0)
    }

    @Test("JSON value: mediaType, dataHex, and text when textual", arguments: values)
    func json(value: MediaRecord) throws {
        let expected: Set<String> = value.text == nil ? ["mediaType", "dataHex"] : ["mediaType", "dataHex", "text"]
        #expect(try jsonKeys(value) == expected)
        #expect(try jsonObject(value)["dataHex"] as? String == Hex.encode(value.data))
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("JSON input takes dataHex, or else text")
    func jsonInput() throws {
        let fromText = try decodeJSON(MediaRecord.self, #"{"mediaType":"text/plain","text":"hi"}"#)
        #expect(fromText == MediaRecord(mediaType: "text/plain", data: [0x68, 0x69]))
        let fromHex = try decodeJSON(MediaRecord.self, #"{"mediaType":"text/plain","dataHex":"00ff","text":"ignored"}"#)
        #expect(fromHex.data == [0x00, 0xFF])
        #expect(throws: DecodingError.self) { try decodeJSON(MediaRecord.self, #"{"mediaType":"a/b"}"#) }
        #expect(throws: DecodingError.self) { try decodeJSON(MediaRecord.self, #"{"mediaType":"a/b","dataHex":"zz"}"#) }
    }

    @Test("description")
    func description() {
        #expect(MediaRecord(mediaType: "text/plain", text: "hi").description == #"Media text/plain: "hi""#)
        #expect(MediaRecord(mediaType: "image/png", data: [1, 2]).description == "Media image/png (2 bytes)")
    }
}
