import Foundation
import HexText
import NDEF
import TestSupport
import Testing

@Suite("Smart poster record (NFC Forum Smart Poster RTD 1.0)")
struct SmartPosterRecordTests {
    @Test("builds URI, title and action records in one nested message")
    func buildsNested() throws {
        let value = SmartPosterRecord(
            uri: "http://nfcpy.org",
            titles: [TextRecord(text: "nfcpy")],
            action: .execute
        )
        let expected =
            "d1022153709101" + "0a55036e666370792e6f7267" + "1101085402656e6e66637079" + "51030161637400"
        #expect(try messageHex(value.makeRecord()) == expected)
        #expect(
            try messageHex(SmartPosterRecord(uri: "http://nfcpy.org").makeRecord())
                == "d1020e5370d1010a55036e666370792e6f7267"
        )
    }

    @Test("builds size, type and icon records")
    func buildsEverything() throws {
        let value = SmartPosterRecord(
            uri: "",
            titles: [TextRecord(text: "a"), TextRecord(text: "b", language: "de")],
            action: .save,
            size: 0x0102_0304,
            mediaType: "a/b",
            icons: [SmartPosterRecord.Icon(mediaType: "image/png", data: [0x89, 0x50])],
            extraRecords: [NFCNDEFPayload(format: .nfcExternal, type: "example.com:x", payload: [0x01])]
        )
        let payload = try value.makeRecord().payload
        let expected = [
            "9101015500",  // URI "" (MB)
            "1101045402656e61",  // title "a" (en)
            "1101045402646562",  // title "b" (de)
            "11030161637401",  // action 1, save
            "1101047301020304",  // size
            "11010374612f62",  // type "a/b"
            "120902696d6167652f706e678950",  // icon image/png
            "540d016578616d706c652e636f6d3a7801",  // the extra record (ME)
        ].joined()
        #expect(Hex.encode(payload) == expected)
    }

    /// ndeflib smart poster payloads (tests/test_smartposter.py) and what they hold.
    static let parseCases: [(String, SmartPosterRecord)] = [
        ("d101015500", SmartPosterRecord(uri: "")),
        ("d1010a55036e666370792e6f7267", SmartPosterRecord(uri: "http://nfcpy.org")),
        (
            "9101015500 5101085402656e6e66637079",
            SmartPosterRecord(uri: "", titles: [TextRecord(text: "nfcpy")])
        ),
        (
            "9101015500 510108540264656e66637079",
            SmartPosterRecord(uri: "", titles: [TextRecord(text: "nfcpy", language: "de")])
        ),
        ("9101015500 51030161637400", SmartPosterRecord(uri: "", action: .execute)),
        ("9101015500 51030161637402", SmartPosterRecord(uri: "", action: .open)),
        (
            "9101015500 510301616374ff",
            SmartPosterRecord(uri: "", action: SmartPosterRecord.Action(rawValue: 0xFF))
        ),
        ("9101015500 5101047300000001", SmartPosterRecord(uri: "", size: 1)),
        ("9101015500 51010473ffffffff", SmartPosterRecord(uri: "", size: .max)),
        ("9101015500 51010374612f62", SmartPosterRecord(uri: "", mediaType: "a/b")),
        (
            "9101015500 520908696d6167652f706e6789504e470d0a1a0a",
            SmartPosterRecord(
                uri: "",
                icons: [
                    SmartPosterRecord.Icon(
                        mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                ]
            )
        ),
        (
            "9101015500 520901766964656f2f6d703400",
            SmartPosterRecord(uri: "", icons: [SmartPosterRecord.Icon(mediaType: "video/mp4", data: [0])])
        ),
        (
            "9101015500 520901494d4147452f47494601",  // media types match in any case
            SmartPosterRecord(uri: "", icons: [SmartPosterRecord.Icon(mediaType: "IMAGE/GIF", data: [1])])
        ),
    ]

    @Test("parses ndeflib smart poster payloads", arguments: parseCases)
    func parses(payload: String, expected: SmartPosterRecord) throws {
        #expect(try SmartPosterRecord(parsing: try wellKnown("Sp", payload)) == expected)
    }

    @Test("keeps other records byte for byte and in order")
    func keepsExtraRecords() throws {
        let external = NFCNDEFPayload(format: .nfcExternal, type: "example.com:x", identifier: [0x49], payload: [1, 2])
        let plain = NFCNDEFPayload(format: .media, type: "text/plain", payload: Array("hi".utf8))
        let nestedPoster = NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: hex("d101015500"))
        let uri = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x00])
        let inner = try NFCNDEFMessage(records: [external, uri, plain, nestedPoster]).encoded()
        let outer = NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: inner)
        let value = try SmartPosterRecord(parsing: outer)
        #expect(value.uri == "")
        #expect(value.extraRecords == [external, plain, nestedPoster])
        #expect(value.icons.isEmpty)
        // Rebuilt with the URI first; parsing that gives the same value again.
        let rebuilt = try value.makeRecord()
        #expect(
            Hex.encode(rebuilt.payload)
                == Hex.encode(try NFCNDEFMessage(records: [uri, external, plain, nestedPoster]).encoded())
        )
        #expect(try SmartPosterRecord(parsing: rebuilt) == value)
    }

    /// Malformed smart poster payloads and where the error is reported in them.
    static let malformed: [(String, Int?)] = [
        ("", 0),  // no message at all
        ("9101015500" + "5101015500", 9),  // two URI records: the second one's payload
        ("d101085402656e6e66637079", nil),  // no URI record
        ("9101015500", 5),  // the inner message lacks ME
        ("d101015500" + "00", 5),  // a byte after the inner message
        ("d1010a55036e6663", 0),  // inner record cut short
        ("9101015500" + "510300616374", 11),  // an empty action record
        ("9101015500" + "5103026163740001", 11),  // a 2-byte action record
        ("9101015500" + "11030161637400" + "51030161637401", 18),  // two action records
        ("9101015500" + "51010373000000", 9),  // a 3-byte size record
        ("9101015500" + "510105730000000000", 9),  // a 5-byte size record
        ("9101015500" + "1101047300000001" + "5101047300000002", 17),  // two size records
        ("9101015500" + "51010674ff6578742f70", 9),  // type record not UTF-8
        ("9101015500" + "1101017461" + "5101017462", 14),  // two type records
        ("d101025503" + "80", 5),  // URI field not UTF-8: offset moved into the poster payload
        ("9101015500" + "1101035402656e" + "5101035402454e", 16),  // two titles in one language
        ("9101015500" + "510102540365", 9),  // title language code runs past its payload
    ]

    @Test("rejects malformed smart posters", arguments: malformed)
    func rejects(payload: String, offset: Int?) throws {
        let record = try wellKnown("Sp", payload)
        let error = ndefError { _ = try SmartPosterRecord(parsing: record) }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == offset)
    }

    @Test("decoding limits are kept for the nested message")
    func limits() throws {
        let poster = try wellKnown("Sp", "9101015500" + "51030161637400")
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try SmartPosterRecord(parsing: poster, options: NDEFDecodingOptions(maximumNestingDepth: 0))
        }
        #expect(throws: NDEFError(.tooManyRecords, "")) {
            try SmartPosterRecord(parsing: poster, options: NDEFDecodingOptions(maximumRecordCount: 1))
        }
        #expect(
            try SmartPosterRecord(parsing: poster, options: NDEFDecodingOptions(maximumNestingDepth: 1)).action
                == .execute)
    }

    /// A smart poster whose only extra record is a smart poster, `depth` levels deep.
    static func chain(depth: Int) throws -> NFCNDEFPayload {
        var record = try SmartPosterRecord(uri: "x").makeRecord()
        for _ in 0..<depth {
            record = try SmartPosterRecord(uri: "x", extraRecords: [record]).makeRecord()
        }
        return record
    }

    @Test("posters nested in extra records count against the nesting limit")
    func nestedPosters() throws {
        // The default limit is 4 levels of nested messages: a chain of 4 posters uses them all.
        let fits = try Self.chain(depth: 3)
        #expect(try SmartPosterRecord(parsing: fits).extraRecords.count == 1)
        #expect(throws: NDEFError(.nestingTooDeep, "")) { try SmartPosterRecord(parsing: try Self.chain(depth: 4)) }
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try SmartPosterRecord(parsing: fits, options: NDEFDecodingOptions(maximumNestingDepth: 3))
        }
        // A very deep chain is refused at once, so its JSON carries an error instead of recursing.
        let deep = try Self.chain(depth: 300)
        let object = try jsonObject(deep)
        #expect(object["value"] == nil)
        #expect((object["valueError"] as? String)?.contains("nesting-too-deep") == true)
    }

    @Test("a chunked inner record is reassembled; errors in it carry no misleading offset")
    func chunkedInnerRecord() throws {
        // URI record in two chunks: "0361" + "80" (the second chunk is not UTF-8).
        let inner = hex("b1 01 02 55 0361" + "56 00 01 80")
        let error = ndefError {
            _ = try SmartPosterRecord(parsing: NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: inner))
        }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == nil)
        let good = hex("b1 01 02 55 0361" + "56 00 01 62")
        #expect(
            try SmartPosterRecord(parsing: NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: good)).uri
                == "http://ab")
    }

    @Test("the builder checks titles, icons and extra records")
    func builderValidates() {
        let duplicate = SmartPosterRecord(
            uri: "x", titles: [TextRecord(text: "a"), TextRecord(text: "b", language: "EN")])
        #expect(throws: NDEFError(.invalidValue, "")) { try duplicate.makeRecord() }
        let longLanguage = SmartPosterRecord(
            uri: "x", titles: [TextRecord(text: "a", language: String(repeating: "a", count: 64))])
        #expect(throws: NDEFError(.invalidValue, "")) { try longLanguage.makeRecord() }
        for type in ["text/plain", "image", "image/", "audio/mpeg"] {
            let icon = SmartPosterRecord(uri: "x", icons: [.init(mediaType: type, data: [])])
            #expect(throws: NDEFError(.invalidValue, ""), "\(type)") { try icon.makeRecord() }
        }
        let typedParts = [
            NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0]),
            NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0]),
            NFCNDEFPayload(format: .nfcWellKnown, type: "act", payload: [0]),
            NFCNDEFPayload(format: .nfcWellKnown, type: "s", payload: [0, 0, 0, 0]),
            NFCNDEFPayload(format: .nfcWellKnown, type: "t", payload: []),
            NFCNDEFPayload(format: .media, type: "image/png", payload: []),
        ]
        for extra in typedParts {
            #expect(throws: NDEFError(.invalidValue, "")) {
                try SmartPosterRecord(uri: "x", extraRecords: [extra]).makeRecord()
            }
        }
        let unencodable = NFCNDEFPayload(format: .unchanged, type: [], payload: [])
        #expect(throws: NDEFError(.invalidValue, "")) {
            try SmartPosterRecord(uri: "x", extraRecords: [unencodable]).makeRecord()
        }
    }

    static let values: [SmartPosterRecord] = [
        SmartPosterRecord(uri: "http://www.nfc.com"),
        SmartPosterRecord(uri: "tel:+35891234567", titles: [TextRecord(text: "Call us")], action: .execute),
        SmartPosterRecord(
            uri: "https://example.com/\u{E4}",
            titles: [
                TextRecord(text: "Hello"),
                TextRecord(text: "Hallo", language: "de", encoding: .utf16),
                TextRecord(text: "\u{1F600}", language: "ja"),
            ],
            action: SmartPosterRecord.Action(rawValue: 7),
            size: .max,
            mediaType: "text/html",
            icons: [.init(mediaType: "image/png", data: Array(repeating: 0xAB, count: 300))],
            extraRecords: [
                NFCNDEFPayload(format: .nfcExternal, type: "example.com:x", identifier: [1], payload: [2]),
                NFCNDEFPayload(format: .empty),
            ]
        ),
        SmartPosterRecord(uri: "", size: 0, mediaType: ""),
        SmartPosterRecord(
            uri: "sms:+1234?body=hi",
            action: .open,
            icons: [.init(mediaType: "video/mp4", data: [0]), .init(mediaType: "image/gif", data: [])]
        ),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: SmartPosterRecord) throws {
        let record = try value.makeRecord()
        #expect(try SmartPosterRecord(parsing: record) == value)
        #expect(try SmartPosterRecord(parsing: try decodedRecord(try messageHex(record))) == value)
    }

    @Test("every truncated payload parses or throws invalidPayload", arguments: values)
    func truncations(value: SmartPosterRecord) throws {
        let failures = try checkTruncations(SmartPosterRecord.self, try value.makeRecord())
        #expect(failures >= 1)
    }

    @Test("description")
    func description() {
        let value = SmartPosterRecord(uri: "https://example.com", titles: [TextRecord(text: "Example")], action: .save)
        #expect(value.description == #"Smart poster: https://example.com "Example", action save"#)
        #expect(
            SmartPosterRecord(uri: "x", action: SmartPosterRecord.Action(rawValue: 9)).description
                == "Smart poster: x, action code 9")
    }

    @Test("title(language:) ignores ASCII case")
    func titleLookup() {
        let value = SmartPosterRecord(uri: "x", titles: [TextRecord(text: "Hallo", language: "de-DE")])
        #expect(value.title(language: "DE-de") == "Hallo")
        #expect(value.title(language: "en") == nil)
    }
}
