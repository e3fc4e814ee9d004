import Foundation
import NDEF
import Testing

@Suite("External type record (NFC Forum RTD 1.0, TNF 4)")
struct ExternalRecordTests {
    @Test("builds the name as TYPE and the data as payload")
    func builds() throws {
        let record = try ExternalRecord(type: "example.com:t", data: [0x68, 0x69]).makeRecord()
        #expect(record.typeNameFormat == .nfcExternal)
        #expect(try messageHex(record) == "d40d02" + "6578616d706c652e636f6d3a74" + "6869")
    }

    @Test(
        "name validation",
        arguments: [
            ("example.com:t", true),
            ("a:b", true),
            ("Example.COM:Type-1_x", true),
            ("a:b:c", true),
            ("nocolon", false),
            (":type", false),
            ("domain:", false),
            ("", false),
            ("exa mple.com:t", false),
            ("example.com:t\u{E9}", false),
            ("example.com:\t", false),
        ]
    )
    func names(name: String, valid: Bool) throws {
        let record = NFCNDEFPayload(format: .nfcExternal, type: Array(name.utf8)[...], payload: [])
        if valid {
            #expect(try ExternalRecord(parsing: record).type == name)
            #expect(try ExternalRecord(type: name).makeRecord() == record)
        } else {
            #expect(throws: NDEFError(.invalidPayload, "")) { try ExternalRecord(parsing: record) }
            #expect(throws: NDEFError(.invalidValue, "")) { try ExternalRecord(type: name).makeRecord() }
        }
    }

    @Test("a name of 256 bytes is too long")
    func longName() throws {
        let name = "a:" + String(repeating: "b", count: 253)
        #expect(try ExternalRecord(type: name).makeRecord().type.count == 255)
        #expect(throws: NDEFError(.invalidValue, "")) { try ExternalRecord(type: name + "b").makeRecord() }
    }

    @Test(
        "text is given for readable UTF-8 payloads only",
        arguments: [
            ("6869", Optional("hi")),
            ("68c3a90a0d09", "h\u{E9}\n\r\t"),
            ("", nil),
            ("68ff", nil),
            ("6800", nil),
            ("681b", nil),
            ("68c285", nil),  // U+0085, a C1 control
        ]
    )
    func text(payload: String, text: String?) throws {
        let value = try ExternalRecord(parsing: try record(.nfcExternal, "example.com:t", payload))
        #expect(value.text == text)
    }

    @Test("names compare without regard to ASCII case")
    func sameName() {
        #expect(ExternalRecord.sameName(Array("Android.COM:Pkg".utf8), "android.com:pkg"))
        #expect(!ExternalRecord.sameName(Array("android.com:pkgx".utf8), "android.com:pkg"))
        #expect(ExternalRecord(type: "example.com:t").domain == "example.com")
    }

    static let values: [ExternalRecord] = [
        ExternalRecord(type: "example.com:text", data: Array("hello".utf8)),
        ExternalRecord(type: "example.com:bin", data: [0, 1, 2, 0xFF]),
        ExternalRecord(type: "a:b", data: []),
        ExternalRecord(type: "Example.com:Big", data: Array(repeating: 0x41, count: 1000)),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: ExternalRecord) throws {
        let record = try value.makeRecord()
        #expect(try ExternalRecord(parsing: record) == value)
        #expect(try ExternalRecord(parsing: try decodedRecord(try messageHex(record))) == value)
        #expect(try checkTruncations(ExternalRecord.self, record) == 0)
    }

    @Test("JSON value: type, dataHex, and text when readable", arguments: values)
    func json(value: ExternalRecord) throws {
        let expected: Set<String> = value.text == nil ? ["type", "dataHex"] : ["type", "dataHex", "text"]
        #expect(try jsonKeys(value) == expected)
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("JSON input takes dataHex, or else text, or else no payload")
    func jsonInput() throws {
        #expect(try decodeJSON(ExternalRecord.self, #"{"type":"a:b","text":"hi"}"#).data == [0x68, 0x69])
        #expect(try decodeJSON(ExternalRecord.self, #"{"type":"a:b","dataHex":"01"}"#).data == [0x01])
        #expect(try decodeJSON(ExternalRecord.self, #"{"type":"a:b"}"#).data == [])
        #expect(throws: DecodingError.self) { try decodeJSON(ExternalRecord.self, #"{"dataHex":"01"}"#) }
    }

    @Test("description")
    func description() {
        #expect(ExternalRecord(type: "a:b", data: Array("hi".utf8)).description == #"External a:b: "hi""#)
        #expect(ExternalRecord(type: "a:b", data: [0, 1]).description == "External a:b (2 bytes)")
    }
}
