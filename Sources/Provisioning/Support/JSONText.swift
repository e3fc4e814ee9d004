import JSONSupport

/// Writes JSON text (RFC 8259 section 7 string escaping) without Foundation.
enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and every control character escaped,
    /// so the result never holds a raw newline.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u00" + hexDigits(UInt8(truncatingIfNeeded: scalar.value), uppercase: false)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// An object from `members` in the order given (values already JSON text).
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// The JSON text of `value`.
    static func encode(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array(let items): "[" + items.map(encode).joined(separator: ",") + "]"
        case .object(let members): object(members.map { ($0.key, encode($0.value)) })
        }
    }
}

/// Two hexadecimal digits of `byte`.
func hexDigits(_ byte: UInt8, uppercase: Bool) -> String {
    let digits: [Character] = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// `bytes` as hexadecimal text.
func hexString(_ bytes: some Sequence<UInt8>, uppercase: Bool = true) -> String {
    bytes.map { hexDigits($0, uppercase: uppercase) }.joined()
}

/// The bytes of hexadecimal `text` (either case, even length), or nil.
func bytes(fromHex text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count / 2)
    var index = 0
    while index < utf8.count {
        guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
        out.append(high << 4 | low)
        index += 2
    }
    return out
}

private func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
}
