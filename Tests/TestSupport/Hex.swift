import Testing

/// Bytes from hex text written in a test: pairs of hex digits, with spaces, line breaks, `:` and
/// `-` between them allowed.
///
/// A typo in a literal fails the test that wrote it (an issue at the caller's line) and gives
/// no bytes; it never stops the test run.
public func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 2)
    var high: UInt8?
    for (offset, character) in text.utf8.enumerated() {
        let value: UInt8
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ":"),
            UInt8(ascii: "-"):
            guard high == nil else {
                Issue.record(
                    "bad hex literal in test: a separator splits a byte at offset \(offset)",
                    sourceLocation: sourceLocation)
                return []
            }
            continue
        default:
            Issue.record(
                "bad hex literal in test: '\(Character(Unicode.Scalar(character)))' at offset \(offset)",
                sourceLocation: sourceLocation)
            return []
        }
        if let first = high {
            bytes.append(first << 4 | value)
            high = nil
        } else {
            high = value
        }
    }
    if high != nil {
        Issue.record("bad hex literal in test: an odd number of hex digits", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// `bytes` as hex text: upper case, `separator` between bytes (none by default).
public func hexText(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var parts: [String] = []
    for byte in bytes {
        parts.append(String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self))
    }
    return parts.joined(separator: separator)
}
