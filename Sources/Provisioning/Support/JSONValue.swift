/// A JSON value (RFC 8259) as the journal and JSON Lines plans need it. Numbers keep their
/// text so that a plan's `0042` stays what the file says (JSON forbids leading zeros, so
/// `42` stays `42` and `1.50` stays `1.50`).
enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member `key` of an object (the first, if repeated), or nil.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as an `Int`, if this is an integer that fits.
    var int: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}

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
