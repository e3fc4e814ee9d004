import JSONSupport
import Testing

/// The package's one Foundation-free JSON parser (RFC 8259) and its options.
@Suite struct JSONParserTests {
    static let strict = JSONParseOptions(
        maximumDepth: 4, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true)
    static let lenient = JSONParseOptions(
        maximumDepth: 4, rejectsDuplicateKeys: false, rejectsInvalidUTF8: false, rejectsLoneSurrogates: false)

    func parse(_ text: String, _ options: JSONParseOptions = strict) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8), options: options)
    }

    @Test("Values, member order and offsets, numbers kept as written, escapes and surrogate pairs")
    func values() throws {
        let value = try parse(#" {"b": [1, -0.5e+3, true, null], "a": "x\n\u00e9\ud83d\ude00"} "#)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].offset == 7)
        #expect(value["b"] == .array([.number("1"), .number("-0.5e+3"), .bool(true), .null]))
        #expect(value["a"]?.string == "x\né😀")
        #expect(try parse("42").int == 42)
    }

    @Test(
        "Refusals name the byte offset",
        arguments: [
            ("", 0), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 0), ("1.", 0), ("\"abc", 0), ("\"\u{01}\"", 1),
            ("[1] 2", 4), ("\"\\x\"", 1), ("tru", 0), ("[[[[[1]]]]]", 4),
        ])
    func refusals(text: String, offset: Int) {
        #expect(throws: JSONParseError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.offset == offset, "\(text)")
        }
    }

    @Test("Duplicate keys, lone surrogates and bytes that are not UTF-8 follow the options")
    func options() throws {
        #expect(throws: JSONParseError.self) { try parse(#"{"a":1,"a":2}"#) }
        #expect(try parse(#"{"a":1,"a":2}"#, Self.lenient)["a"] == .number("1"))
        #expect(throws: JSONParseError.self) { try parse(#""\ud800""#) }
        #expect(try parse(#""\ud800""#, Self.lenient).string == "\u{FFFD}")
        let invalid: [UInt8] = [0x22, 0xFF, 0x22]
        do {
            _ = try JSONValue.parse(invalid, options: Self.strict)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.isInvalidUTF8 && error.offset == 1)
        }
        #expect(try JSONValue.parse(invalid, options: Self.lenient).string == "\u{FFFD}")
    }

    @Test("Every prefix of a valid text is refused or parsed, never a trap")
    func prefixes() {
        let text = Array(#"{"k": ["v", 1.5e-2, {"n": null}], "t": "\u00e9"}"#.utf8)
        for end in 0..<text.count {
            _ = try? JSONValue.parse(Array(text.prefix(end)), options: Self.strict)
        }
        #expect(JSONParseError.line(of: 5, in: Array("a\nb\nc".utf8)) == 3)
    }
}
