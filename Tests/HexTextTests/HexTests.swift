import HexText
import Testing

@Suite struct HexTests {
    @Test("HexText.md: encode, the upper-case forms, a number, decode and where it stops")
    func documentationExample() {
        // Example begin
        print(Hex.encode([0xD1, 0x01, 0x01]))  // d10101
        print(Hex.bytes([0xE1, 0x10, 0x12, 0x00]))  // E1 10 12 00
        print(Hex.byte(0x0F) + "h")  // 0Fh
        print(Hex.number(0x8010_001D, minimumDigits: 8))  // 8010001D

        do {
            print(try Hex.decode("04:A1:B2", allowSeparators: true))  // [4, 161, 178]
            _ = try Hex.decode("04 A1 G2")
        } catch {
            print(error)  // at byte 6: not a hex digit: 'G'
        }
        // Example end
        #expect(Hex.encode([0xD1, 0x01, 0x01]) == "d10101")
        #expect(Hex.bytes([0xE1, 0x10, 0x12, 0x00]) == "E1 10 12 00")
        #expect(Hex.byte(0x0F) + "h" == "0Fh")
        #expect(Hex.number(0x8010_001D, minimumDigits: 8) == "8010001D")
        #expect(throws: HexDecodingError(offset: 6, reason: "not a hex digit: 'G'")) { try Hex.decode("04 A1 G2") }
    }

    @Test("Every byte encodes to two digits in either case and decodes back, with any separator")
    func everyByteRoundTrips() throws {
        let all = (0...255).map { UInt8($0) }
        let lower = Hex.encode(all)
        #expect(lower.utf8.count == 512)
        #expect(lower.hasPrefix("000102") && lower.hasSuffix("fdfeff"))
        #expect(try Hex.decode(lower) == all)
        #expect(try Hex.decode(Hex.encode(all, uppercase: true, separator: ":"), allowSeparators: true) == all)
        #expect(try Hex.decode(Hex.encode(all, uppercase: true, separator: "\n")) == all)
        #expect(Hex.decodeDigits(lower) == all)
        #expect(Hex.decodeDigits(lower.uppercased()) == all)
        for byte in all { #expect(Hex.byte(byte) == Hex.number(byte, minimumDigits: 2)) }
    }

    @Test("The fixed-width forms: a word is four digits, most significant byte first")
    func fixedWidth() {
        #expect(Hex.word(0xE104) == "E104")
        #expect(Hex.word(0x000F) == "000F")
        #expect(Hex.byte(0xA) == "0A")
        #expect(Hex.bytes([]) == "")
        #expect(Hex.encode([0xAB], uppercase: true, separator: " ") == "AB")
    }

    @Test(
        "Numbers: as many digits as needed, at least the minimum, negative ones signed",
        arguments: [
            (0, 1, "0"), (0, 4, "0000"), (0x1F, 1, "1F"), (0x1F, 4, "001F"), (0xFFFF_FFFF, 2, "FFFFFFFF"),
            (-26, 1, "-1A"), (-26, 4, "-001A"),
        ])
    func numbers(value: Int, minimumDigits: Int, expected: String) {
        #expect(Hex.number(value, minimumDigits: minimumDigits) == expected)
        #expect(Hex.number(value, minimumDigits: minimumDigits, uppercase: false) == expected.lowercased())
    }

    @Test("Numbers of every width, signed minimums included")
    func numberWidths() {
        #expect(Hex.number(UInt64.max) == "FFFFFFFFFFFFFFFF")
        #expect(Hex.number(Int64.min) == "-8000000000000000")
        #expect(Hex.number(Int8.min) == "-80")
        #expect(Hex.number(UInt8(7), minimumDigits: 0) == "7")
    }

    @Test(
        "Text that is not hex: the offset of the first bad character, or of the lone last digit",
        arguments: [
            ("0g", 1, "not a hex digit: 'g'"), ("abc", 2, "odd number of hex digits"),
            ("ab cd e", 6, "odd number of hex digits"), ("ab:cd", 2, "not a hex digit: ':'"),
            ("0x12", 1, "not a hex digit: 'x'"), ("a\u{7}", 1, "not a hex digit: byte 07h"),
            ("é0", 0, "not a hex digit: byte C3h"),
        ])
    func refusals(text: String, offset: Int, reason: String) {
        #expect(throws: HexDecodingError(offset: offset, reason: reason)) { try Hex.decode(text) }
    }

    @Test("Separators are taken only when allowed; whitespace always")
    func separators() throws {
        #expect(try Hex.decode("04-A1:b2", allowSeparators: true) == [0x04, 0xA1, 0xB2])
        #expect(try Hex.decode(" 04\tA1\r\nB2 ") == [0x04, 0xA1, 0xB2])
        #expect(throws: HexDecodingError.self) { try Hex.decode("04-A1") }
        #expect(try Hex.decode("") == [])
    }

    @Test("The strict form takes digit pairs only", arguments: ["0", "0 1", "01:02", "zz", "abc", "0x"])
    func strictRefusals(text: String) {
        #expect(Hex.decodeDigits(text) == nil)
    }

    @Test("Digit values in both cases, nothing else")
    func digitValues() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        #expect(digits.map { Hex.digitValue($0) } == (0...15).map { UInt8($0) } + (10...15).map { UInt8($0) })
        let others = (0...255).map { UInt8($0) }.filter { !digits.contains($0) }
        #expect(others.allSatisfy { Hex.digitValue($0) == nil })
    }

    @Test("The error describes itself with its offset")
    func errorDescription() {
        #expect(
            "\(HexDecodingError(offset: 3, reason: "odd number of hex digits"))"
                == "at byte 3: odd number of hex digits")
    }
}
