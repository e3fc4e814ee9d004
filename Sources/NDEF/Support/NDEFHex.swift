/// Lower-case hexadecimal text for bytes, and its parser.
public enum NDEFHex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `bytes` as lower-case hex without separators, for example `"d10101"`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, uppercase: false, separator: "")
    }

    /// `bytes` as hex in the chosen case with `separator` between bytes, for example
    /// `encode(bytes, uppercase: true, separator: " ")` gives `"D1 01 01"`.
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool, separator: String) -> String {
        let digits = uppercase ? upperDigits : digits
        let glue = Array(separator.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * (2 + glue.count))
        for byte in bytes {
            if !glue.isEmpty && !out.isEmpty { out.append(contentsOf: glue) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hex text; ASCII whitespace (and `:` or `-` separators when `allowSeparators`) is
    /// ignored, upper and lower case are accepted.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` with the character offset of the first
    ///   character that is not a hex digit, or of a final lone digit.
    public static func decode(_ text: some StringProtocol, allowSeparators: Bool = false) throws(NDEFError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        var highOffset = 0
        for (offset, char) in text.utf8.enumerated() {
            let value: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: ":") where allowSeparators, UInt8(ascii: "-") where allowSeparators:
                continue
            default:
                // Printable ASCII is shown as it is, any other byte as its value: an error message
                // never carries control characters or broken UTF-8 to a terminal.
                let printable = (0x21...0x7E).contains(char)
                let shown =
                    printable
                    ? "'\(String(decoding: [char], as: UTF8.self))'"
                    : "byte \(encode([char], uppercase: true, separator: ""))h"
                throw NDEFError(.invalidValue, at: offset, "not a hex digit: \(shown)")
            }
            if let pending = high {
                out.append(pending << 4 | value)
                high = nil
            } else {
                high = value
                highOffset = offset
            }
        }
        if high != nil { throw NDEFError(.invalidValue, at: highOffset, "odd number of hex digits") }
        return out
    }
}
