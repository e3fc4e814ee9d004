import TagMemory
import TestSupport
import Testing

/// Hex text dumps: the grammar documented on `HexTextDump` (one 4-byte page or 16-byte block
/// per line, optional hexadecimal `[n]` / `n:` numbers, `#` comments).
@Suite("Hex text dumps")
struct HexTextDumpTests {
    @Test("The hand-written fixture (three numbering styles, comments) holds the NTAG213 image")
    func readsFixture() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri.txt"), format: .hexText)
        #expect(dump.layout == .type2)
        #expect(dump.memory == (try DumpFixtures.ntag213Memory()))
        #expect(dump.uid == nil)
        #expect(dump.effectiveUID == hex("04 A1 B2 C3 D4 E5 F6"))
    }

    @Test("The writer numbers every page; its output reads back and rewrites identically")
    func canonicalRoundTrip() throws {
        let dump = try TagDump(decoding: try DumpFixtures.bytes("ntag213-uri.txt"), format: .hexText)
        let written = try dump.encoded(as: .hexText)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("# 45 pages of 4 bytes, one per line; numbers are hexadecimal\n00: 04 A1 B2 9F\n"))
        #expect(text.hasSuffix("\n2C: 00 00 00 00\n"))
        let again = try TagDump(decoding: written, format: .hexText)
        #expect(again == dump)
        #expect(try again.encoded(as: .hexText) == written)
    }

    @Test("Numbers widen past page FF (NTAG I2C 2K has 485 pages)")
    func wideNumbers() throws {
        let dump = TagDump(memory: Array(repeating: 0xAA, count: 485 * 4))
        let text = String(decoding: try dump.encoded(as: .hexText), as: UTF8.self)
        #expect(text.contains("\n000: AA AA AA AA\n"))
        #expect(text.hasSuffix("\n1E4: AA AA AA AA\n"))
        #expect(try TagDump(decoding: utf8(text), format: .hexText) == dump)
    }

    @Test("Lines of 16 bytes (READ responses) are four pages each")
    func sixteenByteLines() throws {
        let text = "[0] 04A1B29F C3D4E5F6 04480000 E1101200\n[1] 0300FE00 00000000 00000000 00000000\n"
        let dump = try TagDump(decoding: utf8(text), format: .hexText)
        #expect(dump.pageCount == 8)
        #expect(dump.page(4) == hex("03 00 FE 00")[...])
    }

    @Test("A 0x prefix, lower case, tabs and CRLF are accepted")
    func spellings() throws {
        let text = "0x00:\t04 a1 b2 9f\r\n0X01: c3d4e5f6 # UID3-6\r\n\r\n  [2]   04 48 00 00  \r\n"
        let dump = try TagDump(decoding: utf8(text), format: .hexText)
        #expect(dump.memory == hex("04A1B29F C3D4E5F6 04480000"))
    }

    @Test(
        "Every malformed line is reported with its line number",
        arguments: [
            "04 1A 2B 3G", "041a2b3", "04 1A 2B", "04 1A 2B 3C 4D", "0 41A2B3C", "[05] 04 1A 2B 3C",
            "[zz] 04 1A 2B 3C", "[01 04 1A 2B 3C", "FFFFFFFFFFFF: 04 1A 2B 3C", "-1: 04 1A 2B 3C",
            "01: 04 1A 2B 3C 00 00 00 00 00 00 00 00 00 00 00 00", "01: 04 1A 2B 3C   ; trailing junk",
        ])
    func malformedLine(_ line: String) {
        let text = "00: 00 00 00 00\n# a comment\n" + line + "\n00000000\n"
        let error = dumpError { _ = try TagDump(decoding: utf8(text), format: .hexText) }
        #expect(error?.code == .malformedDump)
        #expect(errorLine(error) == 3, "\(error?.reason ?? "no error")")
    }

    @Test("A file of comments only holds no pages")
    func noPages() {
        let error = dumpError { _ = try TagDump(decoding: utf8("# nothing\n\n   \n"), format: .hexText) }
        #expect(error?.code == .malformedDump)
    }

    @Test("A dump past the largest supported memory stops at the line that crosses it")
    func tooManyLines() {
        let lines = Array(repeating: "00000000", count: TagDump.maximumMemorySize / 4 + 1)
        let error = dumpError { _ = try TagDump(decoding: utf8(lines.joined(separator: "\n")), format: .hexText) }
        #expect(errorLine(error) == TagDump.maximumMemorySize / 4 + 1)
    }

    @Test("A huge or negative page number never traps and allocates nothing for it")
    func hostileNumbers() {
        for number in ["5F5E100", "FFFFFFFF", "7FFFFFFFFFFFFFFFFFFFFFFF", "-80000000"] {
            let error = dumpError { _ = try TagDump(decoding: utf8("[\(number)] 00 00 00 00\n"), format: .hexText) }
            #expect(errorLine(error) == 1, "\(number): \(error?.reason ?? "no error")")
        }
    }
}
