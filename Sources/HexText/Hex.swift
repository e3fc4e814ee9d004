/// Hexadecimal text for bytes and numbers, and its parsers: the package's one hex encoder and
/// decoder, used by every module from the NDEF codec to the command line.
///
/// Encoding writes two digits per byte, lower case unless asked otherwise, with an optional
/// separator between bytes. The descriptions of tags, frames and status words use the upper-case
/// forms ``byte(_:)``, ``word(_:)`` and ``bytes(_:)``.
///
/// ```swift
/// Hex.encode([0xD1, 0x01, 0x01])  // "d10101"
/// Hex.bytes([0xE1, 0x10, 0x12, 0x00])  // "E1 10 12 00"
/// try Hex.decode("04:A1:B2", allowSeparators: true)  // [0x04, 0xA1, 0xB2]
/// ```
public enum Hex {
    private static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `bytes` as hex, lower case without separators unless asked otherwise: `encode(bytes)` gives
    /// `"d10101"`, `encode(bytes, uppercase: true, separator: " ")` gives `"D1 01 01"`.
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, separator: String = "") -> String
    {
        let digits = uppercase ? upperDigits : lowerDigits
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

    /// Two upper-case digits: `0A`.
    public static func byte(_ value: UInt8) -> String {
        encode(CollectionOfOne(value), uppercase: true)
    }

    /// Four upper-case digits, most significant byte first: `E104`.
    public static func word(_ value: UInt16) -> String {
        encode([UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)], uppercase: true)
    }

    /// Upper-case pairs separated by spaces: `FF CA 00 00`.
    public static func bytes(_ values: some Sequence<UInt8>) -> String {
        encode(values, uppercase: true, separator: " ")
    }

    /// A non-negative number in as many digits as it needs, at least `minimumDigits`:
    /// `number(0x1F)` is `1F`, `number(5, minimumDigits: 3)` is `005`. Negative values are
    /// written as their magnitude after a minus sign.
    public static func number(_ value: some BinaryInteger, minimumDigits: Int = 1, uppercase: Bool = true) -> String {
        let digits = uppercase ? upperDigits : lowerDigits
        var magnitude = value.magnitude
        var out: [UInt8] = []
        repeat {
            out.append(digits[Int(magnitude % 16)])
            magnitude /= 16
        } while magnitude > 0
        while out.count < minimumDigits { out.append(UInt8(ascii: "0")) }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        return String(decoding: out.reversed(), as: UTF8.self)
    }

    /// The value of one hex digit in either case, or nil.
    @inline(__always)
    public static func digitValue(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Parses hex text; ASCII whitespace (and `:` or `-` separators when `allowSeparators`) is
    /// ignored, upper and lower case are accepted.
    ///
    /// - Throws: ``HexDecodingError`` with the offset (in UTF-8 bytes) of the first character
    ///   that is not a hex digit, or of a final lone digit.
    public static func decode(_ text: some StringProtocol, allowSeparators: Bool = false) throws(HexDecodingError)
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        var highOffset = 0
        for (offset, char) in text.utf8.enumerated() {
            guard let value = digitValue(char) else {
                switch char {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
                case UInt8(ascii: ":") where allowSeparators, UInt8(ascii: "-") where allowSeparators: continue
                default: throw HexDecodingError(notADigit: char, at: offset)
                }
            }
            if let pending = high {
                out.append(pending << 4 | value)
                high = nil
            } else {
                high = value
                highOffset = offset
            }
        }
        if high != nil { throw HexDecodingError(offset: highOffset, reason: "odd number of hex digits") }
        return out
    }

    /// The bytes of text made of hex digit pairs only (either case, no spaces or separators), or
    /// nil: the strict form for values that arrive in bulk, such as the parameters of every URL a
    /// SUN verifier checks, at about twice the rate of ``decode(_:allowSeparators:)``.
    public static func decodeDigits(_ text: some StringProtocol) -> [UInt8]? {
        var utf8 = text.utf8.makeIterator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        while let first = utf8.next() {
            guard let high = digitValue(first), let second = utf8.next(), let low = digitValue(second) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
