import HexText

/// Writes JSON text (RFC 8259; strings escaped as section 7 says) without Foundation: what
/// ``JSONValue`` reads, written back.
package enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and every control character escaped,
    /// so the result never holds a raw newline.
    package static func quoted(_ text: String) -> String {
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
                    out +=
                        "\\u" + Hex.number(scalar.value, minimumDigits: 4, uppercase: false)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// An object from `members` in the order given (values already JSON text).
    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// The JSON text of `value`.
    package static func encode(_ value: JSONValue) -> String {
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
