import Provisioning
import TestSupport
import Testing

@Suite("Plans: CSV (RFC 4180), JSON Lines, counter ranges")
struct PlanTests {
    private func csv(_ text: String) throws -> ProvisioningPlan { try ProvisioningPlan.csv(Array(text.utf8)) }

    /// RFC 4180 section 2 rules 1-7 in one file: BOM, CRLF, header, quoted comma, doubled
    /// quote, embedded line break, empty last field.
    @Test func fixtureCSV() throws {
        let plan = try ProvisioningPlan.csv(ProvisioningFixtures.load("tags.csv"))
        #expect(plan.fields == ["serial", "url", "label"])
        #expect(plan.count == 4)
        #expect(plan.row(1)?.values["label"] == "Hall A, door 1")
        #expect(plan.row(2)?.values["label"] == "Say \"hi\"")
        #expect(plan.row(3)?.values["label"] == "two\r\nlines")
        #expect(plan.row(4)?.values["label"] == "")
        #expect(plan.row(4)?.line == 6)
        #expect(plan.row(0) == nil)
        #expect(plan.row(5) == nil)
        #expect(plan.digest.count == 32)
    }

    @Test func lfLineEndsAndNoFinalNewline() throws {
        let plan = try csv("a,b\n1,2\n3,4")
        #expect(plan.count == 2)
        #expect(plan.row(2)?.values == ["a": "3", "b": "4"])
        #expect(plan.row(2)?.number == 2)
    }

    @Test func emptyLinesAreSkippedAndRowsKeepTheirLines() throws {
        let plan = try csv("a\n\n1\n\r\n2\n")
        #expect(plan.count == 2)
        #expect(plan.row(1)?.line == 3)
        #expect(plan.row(2)?.line == 5)
    }

    @Test func quotedEmptyAndTrailingComma() throws {
        let plan = try csv("a,b\n\"\",\n")
        #expect(plan.row(1)?.values == ["a": "", "b": ""])
    }

    @Test func badQuoteFixtureNamesLineAndColumn() throws {
        let error = #expect(throws: ProvisioningError(.malformedPlan, "")) {
            try ProvisioningPlan.csv(ProvisioningFixtures.load("bad-quote.csv"))
        }
        #expect(error?.line == 3)
        #expect(error?.column == 26)
    }

    @Test func shortRowFixture() throws {
        let error = #expect(throws: ProvisioningError(.fieldCountMismatch, "")) {
            try ProvisioningPlan.csv(ProvisioningFixtures.load("short-row.csv"))
        }
        #expect(error?.line == 3)
    }

    @Test(arguments: [
        ("a\n\"open", ProvisioningError.Code.malformedPlan, 2, 1),
        ("a\n\"x\"y\n", .malformedPlan, 2, 4),
        ("a\nx\ry\n", .malformedPlan, 2, 2),
        ("a,a\n1,2\n", .invalidFieldName, 1, 3),
        ("a,\n1,2\n", .invalidFieldName, 1, 3),
        ("a b\n1\n", .invalidFieldName, 1, 1),
        ("uid\n1\n", .invalidFieldName, 1, 1),
        ("row\n1\n", .invalidFieldName, 1, 1),
        ("a\n", .emptyPlan, 1, 0),
        ("", .emptyPlan, 0, 0),
        ("\u{FEFF}", .emptyPlan, 0, 0),
        ("a,b\n1,2,3\n", .fieldCountMismatch, 2, 0),
    ])
    func malformedCSV(text: String, code: ProvisioningError.Code, line: Int, column: Int) throws {
        let error = #expect(throws: ProvisioningError(code, "")) { try csv(text) }
        #expect(error?.line == line)
        #expect(error?.column == column)
    }

    @Test func invalidUTF8() throws {
        let error = #expect(throws: ProvisioningError(.invalidUTF8, "")) {
            try ProvisioningPlan.csv(Array("a\nx".utf8) + [0xFF, 0x0A])
        }
        #expect(error?.line == 2)
    }

    @Test func fieldTooLong() throws {
        let long = String(repeating: "x", count: ProvisioningPlan.maximumFieldBytes + 1)
        #expect(throws: ProvisioningError(.limitExceeded, "")) { try csv("a\n\(long)\n") }
        #expect(throws: ProvisioningError(.limitExceeded, "")) { try csv("a\n\"\(long)\"\n") }
        #expect(try csv("a\n\(long.dropLast())\n").count == 1)
    }

    /// 100,000 seeded random inputs built from CSV's special bytes never trap: each parses or
    /// throws a positioned error.
    @Test func randomInputsNeverTrap() {
        var generator = SeededRandom(seed: 4180)
        let alphabet: [UInt8] = Array("a,\"\r\n x".utf8) + [0xEF, 0xBB, 0xBF, 0xFF, 0x00, 0xC3, 0xA9]
        var parsed = 0
        for _ in 0..<100_000 {
            let length = Int.random(in: 0..<24, using: &generator)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            do {
                let plan = try ProvisioningPlan.csv(bytes)
                parsed += 1
                #expect(plan.count >= 1)
            } catch {
                #expect(error.line >= 0 && error.column >= 0)
            }
        }
        #expect(parsed > 0)
    }

    @Test func randomJSONLinesNeverTrap() {
        var generator = SeededRandom(seed: 8259)
        let alphabet: [UInt8] = Array("{}[]\":,\\u0a1-.e \ntrue".utf8) + [0xFF, 0xD8]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<24, using: &generator)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            do {
                _ = try ProvisioningPlan.jsonLines(bytes)
            } catch {
                #expect(error.line >= 0)
            }
        }
    }

    @Test func fixtureJSONLines() throws {
        let plan = try ProvisioningPlan.jsonLines(ProvisioningFixtures.load("tags.jsonl"))
        #expect(plan.fields == ["serial", "url", "count"])
        #expect(plan.count == 3)
        #expect(plan.row(2)?.values["count"] == "2.5")
        #expect(plan.row(3)?.values == ["serial": "0003", "url": "https://example.com/t/0003", "count": "-3"])
        #expect(plan.row(3)?.line == 4)
    }

    @Test func jsonEscapes() throws {
        let plan = try ProvisioningPlan.jsonLines(Array(#"{"a":"\u00e9\ud83d\ude00\"\\\/"}"#.utf8))
        #expect(plan.row(1)?.values["a"] == "é😀\"\\/")
    }

    @Test(arguments: [
        ("{\"a\":1}\n{\"a\":true}\n", ProvisioningError.Code.malformedPlan, 2),
        ("{\"a\":1}\n{\"a\":{\"b\":1}}\n", .malformedPlan, 2),
        ("{\"a\":1}\n[1]\n", .malformedPlan, 2),
        ("{\"a\":1}\n{\"b\":1}\n", .fieldCountMismatch, 2),
        ("{\"a\":1}\n{\"a\":1,\"b\":2}\n", .fieldCountMismatch, 2),
        ("{\"a\":1,\"a\":2}\n", .invalidFieldName, 1),
        ("{}\n", .invalidFieldName, 1),
        ("{\"uid\":\"x\"}\n", .invalidFieldName, 1),
        ("{\"a\":01}\n", .malformedPlan, 1),
        ("{\"a\":\"x\"} x\n", .malformedPlan, 1),
        ("{\"a\":\"\\ud800\"}\n", .malformedPlan, 1),
        ("\n\n", .emptyPlan, 0),
    ])
    func malformedJSONLines(text: String, code: ProvisioningError.Code, line: Int) throws {
        let error = #expect(throws: ProvisioningError(code, "")) { try ProvisioningPlan.jsonLines(Array(text.utf8)) }
        #expect(error?.line == line)
    }

    @Test func jsonErrorNamesTheByte() throws {
        let error = #expect(throws: ProvisioningError(.malformedPlan, "")) {
            try ProvisioningPlan.jsonLines(Array("{\"a\":1}\n{\"a\" 1}\n".utf8))
        }
        #expect(error?.line == 2)
        #expect(error?.column == 6)
    }

    @Test func counterRange() throws {
        let plan = try ProvisioningPlan.counter(from: 8, to: 12, width: 4)
        #expect(plan.fields == ["counter"])
        #expect(plan.count == 5)
        #expect(plan.row(1)?.values["counter"] == "0008")
        #expect(plan.row(5)?.values["counter"] == "0012")
        #expect(plan.row(6) == nil)
        let unpadded = try ProvisioningPlan.counter(parsing: "998...1000")
        #expect(unpadded.row(3)?.values["counter"] == "1000")
        #expect(try ProvisioningPlan.counter(parsing: "1-3/2").row(1)?.values["counter"] == "01")
        #expect(try ProvisioningPlan.counter(parsing: "5...5").count == 1)
        #expect(plan.digest != unpadded.digest)
    }

    @Test(arguments: ["5...4", "-1...3", "a...b", "1...", "1...3/x", "1...3/99", "", "0...1000000"])
    func badCounterRanges(text: String) {
        #expect(throws: ProvisioningError.self) { try ProvisioningPlan.counter(parsing: text) }
    }

    @Test func tooManyCounterRows() {
        #expect(throws: ProvisioningError(.limitExceeded, "")) {
            try ProvisioningPlan.counter(from: 0, to: Int.max)
        }
    }
}
