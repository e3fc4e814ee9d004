import NDEF
import Testing

/// One-line descriptions quote text without Swift's escapes of apostrophes or non-ASCII.
@Suite struct QuotedTextTests {
    @Test(arguments: [
        ("it's", "\"it's\""), ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""),
        ("two\nlines\ttab", "\"two\\nlines\\ttab\""), ("bell\u{07}", "\"bell\\u{7}\""), ("Grüße 日本", "\"Grüße 日本\""),
        ("c1\u{85}", "\"c1\\u{85}\""), ("", "\"\""),
    ])
    func quoting(text: String, expected: String) {
        #expect(text.quotedForDescription == expected)
    }

    @Test func textRecordDescription() throws {
        let record = try TextRecord(text: "it's", language: "en").makeRecord()
        #expect(try TextRecord(parsing: record).description == "Text (en): \"it's\"")
    }
}
