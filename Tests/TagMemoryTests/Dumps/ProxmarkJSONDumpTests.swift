import Foundation
import TagMemory
import TestSupport
import Testing

/// proxmark3 JSON dumps: `client/src/fileutils.c` `prepareJSON` (`jsfMfuMemory`) and
/// `loadFileJSONex` (`"mfu"`), dumped by jansson with `JSON_INDENT(2)` and no final line break
/// (as in the repository's `traces/mifare/ntag216-empty.json`).
@Suite("proxmark3 JSON dumps")
struct ProxmarkJSONDumpTests {
    static let fixture = "ntag213-uri-proxmark.json"

    @Test("Card fields and blocks read; written back byte for byte")
    func roundTrip() throws {
        let bytes = try DumpFixtures.bytes(Self.fixture)
        let dump = try TagDump(decoding: bytes, format: .proxmarkJSON)
        #expect(dump.memory == (try DumpFixtures.ntag213Memory()))
        #expect(dump.uid == hex("04 A1 B2 C3 D4 E5 F6"))
        #expect(dump.version == hex("00 04 04 02 01 00 0F 03"))
        #expect(dump.signature == Array(0x10...0x2F))
        #expect(dump.counters == [0, 0, 7], "Counter2 \"070000\": READ_CNT bytes, least significant first")
        #expect(dump.tearingFlags == [0, 0, 0xBD])
        #expect(dump.atqa == nil && dump.sak == nil && dump.chipName == nil)
        #expect(try dump.encoded(as: .proxmarkJSON) == bytes)
        #expect(bytes.last == UInt8(ascii: "}"), "jansson writes no final line break")
    }

    @Test("A Card UID that differs from pages 0-1 survives a write (the round trip Scripts/fuzz --target dumps checks)")
    func statedUIDKept() throws {
        let text = String(decoding: try DumpFixtures.bytes(Self.fixture), as: UTF8.self)
        let edited = text.replacingFirst(#""UID": "04A1B2C3D4E5F6""#, with: #""UID": "04A1B2C3D4E5F7""#)
        let dump = try TagDump(decoding: utf8(edited), format: .proxmarkJSON)
        #expect(dump.uid == hex("04 A1 B2 C3 D4 E5 F7"))
        let again = try TagDump(decoding: try dump.encoded(as: .proxmarkJSON), format: .proxmarkJSON)
        #expect(again == dump)
        #expect(try again.encoded(as: .proxmarkJSON) == utf8(edited))
        var odd = dump
        odd.uid = [1, 2, 3]
        #expect(dumpError { _ = try odd.encoded(as: .proxmarkJSON) }?.code == .invalidArgument)
    }

    @Test("Blocks may come in any order; Card fields are optional, as in loadFileJSONex")
    func lenientWhereProxmarkIs() throws {
        let text = #"{"FileType":"mfu","blocks":{"1":"C3D4E5F6","0":"04A1B29F"}}"#
        let dump = try TagDump(decoding: utf8(text), format: .proxmarkJSON)
        #expect(dump.memory == hex("04A1B29F C3D4E5F6"))
        #expect(dump.version == nil && dump.counters == nil)
    }

    /// A change to the fixture text and the line the error must name.
    static let malformations: [(String, String, Int)] = [
        (#""FileType": "mfu""#, #""FileType": "mfc v2""#, 3),
        (#""5": "340311D1""#, #""5": "340311D""#, 23),
        (#""5": "340311D1""#, #""5": "34 03 11 D1""#, 23),
        (#""5": "340311D1""#, #""5": 340311"#, 23),
        (#""5": "340311D1""#, #""45": "340311D1""#, 23),
        (#""5": "340311D1""#, #""05": "340311D1""#, 23),
        (#""5": "340311D1""#, #""-1": "340311D1""#, 23),
        (#""5": "340311D1""#, #""100000000": "340311D1""#, 23),
        (#""5": "340311D1""#, #""99999999999999999999999": "340311D1""#, 23),
        (#""Version": "0004040201000F03""#, #""Version": "0004040201000F""#, 6),
        (#""Counter2": "070000""#, #""Counter2": "07000000""#, 14),
        (#""Tearing0": "00""#, #""Tearing0": "0""#, 11),
        (#""Card": {"#, #""Card": ["#, 5),
        (#""6": "01"#, #""5": "01"#, 24),
        (#""Created": "proxmark3","#, #""Created": "proxmark3""#, 3),
        (#""Signature": ""#, #""Signature": "\x"#, 9),
    ]

    @Test("Malformed JSON and bad values are reported with their line", arguments: 0..<malformations.count)
    func malformed(_ index: Int) throws {
        let (old, new, line) = Self.malformations[index]
        let text = String(decoding: try DumpFixtures.bytes(Self.fixture), as: UTF8.self)
        let edited = text.replacingFirst(old, with: new)
        #expect(edited != text, "edit \(index) applies")
        let error = dumpError { _ = try TagDump(decoding: utf8(edited), format: .proxmarkJSON) }
        #expect(error?.code == .malformedDump)
        #expect(errorLine(error) == line, "\(new): \(error?.reason ?? "no error")")
    }

    @Test(
        "Whole-document errors",
        arguments: [
            "", "[]", "{}", #"{"FileType": "mfu"}"#, #"{"FileType": "mfu", "blocks": {}}"#,
            #"{"FileType": "mfu", "blocks": []}"#, #"{"FileType": "mfu", "blocks": {"1": "00000000"}}"#,
            #"{"FileType": "mfu", "FileType": "mfu"}"#, #"{"FileType": "mfu"} x"#, #"{"FileType": mfu}"#,
            "{\"FileType\": \"m\u{1}fu\"}", #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": -}"#, #"{"a": tru}"#,
        ])
    func documentErrors(_ text: String) {
        #expect(dumpError { _ = try TagDump(decoding: utf8(text), format: .proxmarkJSON) }?.code == .malformedDump)
    }

    @Test("Escapes and numbers of RFC 8259 are read where values are skipped")
    func jsonGrammar() throws {
        let text = #"""
            {"Created": "pm3 \u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t", "n": [-0.5e+3, 0, 12, true, false, null, {}],
             "FileType": "mfu", "blocks": {"0": "04a1b29f"}}
            """#
        let dump = try TagDump(decoding: utf8(text), format: .proxmarkJSON)
        #expect(dump.memory == hex("04A1B29F"))
    }

    @Test("Nesting past the limit is refused, not recursed into")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let text = #"{"FileType": "mfu", "x": "# + deep + "}"
        #expect(dumpError { _ = try TagDump(decoding: utf8(text), format: .proxmarkJSON) }?.code == .malformedDump)
    }

    @Test("Every prefix of the fixture fails cleanly")
    func truncation() throws {
        let bytes = try DumpFixtures.bytes(Self.fixture)
        for length in 0..<bytes.count {
            let error = dumpError { _ = try TagDump(decoding: Array(bytes[..<length]), format: .proxmarkJSON) }
            #expect(error?.code == .malformedDump, "prefix of \(length) bytes")
        }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
