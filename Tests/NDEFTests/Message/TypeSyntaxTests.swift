import Testing

@testable import NDEF

/// The character classes of ``NDEFTypeSyntax`` as bit masks, rebuilt from the characters the
/// grammars list, and the US-ASCII rule where a grammar would let any byte through.
@Suite("TYPE syntax character classes (RTD 1.0 appendix A, RFC 2045, RFC 3986, RFC 1035)")
struct TypeSyntaxTests {
    static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    static let digits = "0123456789"

    /// Every class with the characters its grammar names.
    static let classes: [(String, ASCIISet, Set<UInt8>)] = [
        ("type name", .typeName, Set((letters + digits + "()+,-.:=@;$_!*'").utf8)),
        ("token", .token, Set((0x21...0x7E).filter { !"()<>@,;:\\\"/[]?=".utf8.contains($0) })),
        ("URI", .uri, Set((letters + digits + "-._~:/?[]@!$&'()*+,;=").utf8)),
        ("scheme", .scheme, Set((letters + digits + "+-.").utf8)),
        ("domain label", .label, Set((letters + digits + "-").utf8)),
        ("letter", .letter, Set(letters.utf8)),
        ("digit", .digit, Set(digits.utf8)),
        ("hex digit", .hexDigit, Set((digits + "abcdefABCDEF").utf8)),
    ]

    @Test("each mask holds exactly the characters of its grammar", arguments: 0..<classes.count)
    func maskMatchesGrammar(index: Int) {
        let (name, set, members) = Self.classes[index]
        for byte in UInt8.min...UInt8.max {
            #expect(set.contains(byte) == members.contains(byte), "\(name): byte \(byte)")
        }
    }

    @Test("a byte above 7Fh is named as not US-ASCII, even inside a quoted media type parameter")
    func nonASCIIInQuotedParameter() {
        let quoted = Array("text/plain; charset=\"utf-8\"".utf8)
        #expect(NDEFTypeSyntax.problem(.media, quoted) == nil)
        let raw: [UInt8] = Array("text/plain; x=\"".utf8) + [0xC3, 0xA9, 0x22]
        #expect(NDEFTypeSyntax.problem(.media, raw) == "holds the byte C3h, not US-ASCII")
        let escaped: [UInt8] = Array("text/plain; x=\"\\".utf8) + [0xE9, 0x22]
        #expect(NDEFTypeSyntax.problem(.media, escaped) == "holds the byte E9h, not US-ASCII")
        for format in [NFCTypeNameFormat.nfcWellKnown, .absoluteURI, .nfcExternal] {
            #expect(NDEFTypeSyntax.problem(format, [0x55, 0x80]) == "holds the byte 80h, not US-ASCII")
        }
    }
}
