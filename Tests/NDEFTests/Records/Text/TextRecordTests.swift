import Foundation
import HexText
import NDEF
import TestSupport
import Testing

@Suite("Text record (NFC Forum Text RTD 1.0)")
struct TextRecordTests {
    @Test("builds the status byte, language code and UTF-8 text")
    func buildsUTF8() throws {
        let record = try TextRecord(text: "Hello, world!", language: "en").makeRecord()
        #expect(record.typeNameFormat == .nfcWellKnown)
        #expect(Array(record.type) == [0x54])
        #expect(Hex.encode(record.payload) == "02656e48656c6c6f2c20776f726c6421")
        #expect(try messageHex(record) == "d101105402656e48656c6c6f2c20776f726c6421")
    }

    @Test("builds UTF-16 big-endian without a byte order mark, status bit 7 set")
    func buildsUTF16() throws {
        let record = try TextRecord(text: "Hello", language: "de", encoding: .utf16).makeRecord()
        #expect(Hex.encode(record.payload) == "826465" + "00480065006c006c006f")
        let emoji = try TextRecord(text: "\u{1F600}", language: "en", encoding: .utf16).makeRecord()
        #expect(Hex.encode(emoji.payload) == "82656e" + "d83dde00")
    }

    @Test("UTF-16 text that starts with U+FEFF or U+FFFE gets an explicit byte order mark")
    func buildsLeadingMark() throws {
        let feff = try TextRecord(text: "\u{FEFF}A", language: "en", encoding: .utf16).makeRecord()
        #expect(Hex.encode(feff.payload) == "82656e" + "feff" + "feff0041")
        let fffe = try TextRecord(text: "\u{FFFE}A", language: "en", encoding: .utf16).makeRecord()
        #expect(Hex.encode(fffe.payload) == "82656e" + "feff" + "fffe0041")
    }

    static let parseCases: [(String, String, String, TextRecord.Encoding)] = [
        ("02656e", "", "en", .utf8),
        ("026465", "", "de", .utf8),
        ("02656e48656c6c6f", "Hello", "en", .utf8),
        ("82656efffe480065006c006c006f00", "Hello", "en", .utf16),  // little-endian with a mark
        ("82656efeff00480065006c006c006f", "Hello", "en", .utf16),  // big-endian with a mark
        ("82656e00480065006c006c006f", "Hello", "en", .utf16),  // no mark: big-endian
        ("02656cce94", "\u{0394}", "el", .utf8),
        ("82656cfffe9403", "\u{0394}", "el", .utf16),
        ("82656ed83dde00", "\u{1F600}", "en", .utf16),
        ("05656e2d555348656c6c6f", "Hello", "en-US", .utf8),
        ("006869", "hi", "", .utf8),  // an empty language code
        ("02656e", "", "en", .utf8),
        // Bit 6 is RFU (Text RTD 1.0, table 3): written as zero, ignored when read.
        ("42656e6869", "hi", "en", .utf8),
        ("c2656e00680069", "hi", "en", .utf16),
    ]

    @Test("parses payloads", arguments: parseCases)
    func parses(payload: String, text: String, language: String, encoding: TextRecord.Encoding) throws {
        let value = try TextRecord(parsing: try wellKnown("T", payload))
        #expect(value == TextRecord(text: text, language: language, encoding: encoding))
        #expect(value.text.unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    static let malformed: [(String, Int)] = [
        ("", 0),  // no status byte
        ("01", 0),  // language runs past the payload
        ("03656e", 0),
        ("3f", 0),
        ("02ff6e", 1),  // language not ASCII
        ("02656e48c3", 4),  // UTF-8 cut inside a sequence
        ("02656efffe5400", 3),  // a UTF-16 mark is not UTF-8
        ("02656ec0af", 3),  // overlong UTF-8
        ("02656eeda080", 3),  // UTF-8 surrogate
        ("82656e54", 3),  // odd UTF-16 length
        ("82656e004854", 5),
        ("82656ed800", 3),  // lone high surrogate
        ("82656e0041dc00", 5),  // lone low surrogate
        ("82656efffe00d8", 5),  // little-endian lone surrogate after the mark
    ]

    @Test("rejects malformed payloads with the offset of the problem", arguments: malformed)
    func rejects(payload: String, offset: Int) throws {
        let record = try wellKnown("T", payload)
        let error = ndefError { _ = try TextRecord(parsing: record) }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == offset)
    }

    @Test("rejects a record of another type")
    func rejectsOtherType() throws {
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try TextRecord(parsing: try wellKnown("U", "00"))
        }
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try TextRecord(parsing: try record(.media, "T", "02656e"))
        }
    }

    @Test("the reserved bit 6 is read past and written as zero")
    func reservedBit() throws {
        let value = try TextRecord(parsing: try wellKnown("T", "c2656e00680069"))
        #expect(Array(try value.makeRecord().payload) == hex("82656e00680069"))
    }

    @Test("the builder checks the language code")
    func builderValidates() throws {
        let longest = String(repeating: "a", count: 63)
        #expect(try TextRecord(text: "x", language: longest).makeRecord().payload.first == 63)
        #expect(try TextRecord(text: "x", language: "").makeRecord().payload.first == 0)
        #expect(throws: NDEFError(.invalidValue, "")) {
            try TextRecord(text: "x", language: String(repeating: "a", count: 64)).makeRecord()
        }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try TextRecord(text: "x", language: "fr-\u{E9}").makeRecord()
        }
    }

    static let values: [TextRecord] = [
        TextRecord(text: "Hello, world!"),
        TextRecord(text: "", language: "en"),
        TextRecord(text: "Hallo Welt", language: "de-DE", encoding: .utf16),
        TextRecord(text: "\u{1F600} smile \u{0394}", language: "el", encoding: .utf16),
        TextRecord(text: "\u{1F600} smile \u{0394}", language: "el", encoding: .utf8),
        TextRecord(text: "\u{FEFF}leading mark", language: "en", encoding: .utf16),
        TextRecord(text: "\u{FFFE}noncharacter", language: "en", encoding: .utf16),
        TextRecord(text: "tab\tnew\nline\u{0}nul", language: String(repeating: "x", count: 63)),
        TextRecord(text: "no language", language: ""),
        TextRecord(text: String(repeating: "long ", count: 100), language: "en", encoding: .utf16),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: TextRecord) throws {
        let record = try value.makeRecord()
        let parsed = try TextRecord(parsing: record)
        #expect(parsed == value)
        #expect(parsed.text.unicodeScalars.elementsEqual(value.text.unicodeScalars))
        let decoded = try TextRecord(parsing: try decodedRecord(try messageHex(record)))
        #expect(decoded == value)
    }

    @Test("every truncated payload parses or throws invalidPayload", arguments: values)
    func truncations(value: TextRecord) throws {
        try checkTruncations(TextRecord.self, try value.makeRecord())
    }

    @Test("JSON value has the keys text, language and encoding", arguments: values)
    func json(value: TextRecord) throws {
        #expect(try jsonKeys(value) == ["text", "language", "encoding"])
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("JSON encoding names and input defaults")
    func jsonDefaults() throws {
        let object = try jsonObject(TextRecord(text: "hi", language: "fr", encoding: .utf16))
        #expect(object["text"] as? String == "hi")
        #expect(object["language"] as? String == "fr")
        #expect(object["encoding"] as? String == "utf-16")
        #expect(
            try decodeJSON(TextRecord.self, #"{"text":"hi"}"#)
                == TextRecord(text: "hi", language: "en", encoding: .utf8))
        #expect(throws: DecodingError.self) {
            try decodeJSON(TextRecord.self, #"{"text":"hi","encoding":"latin-1"}"#)
        }
        #expect(throws: DecodingError.self) { try decodeJSON(TextRecord.self, #"{"language":"en"}"#) }
    }

    @Test("description names the language and quotes the text")
    func description() {
        #expect(TextRecord(text: "Hello").description == #"Text (en): "Hello""#)
        #expect(TextRecord(text: "Hi", language: "de", encoding: .utf16).description == #"Text (de, UTF-16): "Hi""#)
    }
}
