extension JSONValue {
    /// Parses `bytes` as exactly one JSON value (RFC 8259), surrounded by nothing but
    /// whitespace. Never traps: every refusal is a ``JSONParseError`` with its byte offset.
    package static func parse(_ bytes: [UInt8], options: JSONParseOptions) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, options: options)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("text follows the JSON value") }
        return value
    }
}

/// A recursive-descent JSON reader over bytes, bounded in depth.
private struct JSONParser {
    let bytes: [UInt8]
    let options: JSONParseOptions
    var index = 0

    init(bytes: [UInt8], options: JSONParseOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// An error at `offset` (the current position when nil).
    func error(_ reason: String, at offset: Int? = nil, invalidUTF8: Bool = false) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason, isInvalidUTF8: invalidUTF8)
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Reads the value starting at the current position, `depth` objects and arrays deep.
    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("the JSON text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a JSON value, found \(shown(bytes[index]))")
        }
    }

    /// `"x"` for a printable ASCII byte, `the byte 0Ah` for another.
    private func shown(_ byte: UInt8) -> String {
        if (0x21..<0x7F).contains(byte) { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        let digits = Array("0123456789ABCDEF")
        return "the byte " + String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]) + "h"
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else {
            throw error("objects and arrays nest deeper than \(options.maximumDepth)")
        }
        index += 1
        var members: [JSONValue.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key in the object")
            }
            let keyOffset = index
            let key = try string()
            if options.rejectsDuplicateKeys, !keys.insert(key).inserted {
                throw error("the key \"\(key)\" appears twice", at: keyOffset)
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "\":\" after the key \"\(key)\"")
            skipWhitespace()
            let offset = index
            members.append(JSONValue.Member(key: key, value: try value(depth: depth), offset: offset))
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "\",\" or \"}\" in the object")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else {
            throw error("objects and arrays nest deeper than \(options.maximumDepth)")
        }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "\",\" or \"]\" in the array")
            return .array(elements)
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONParseError) {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
        index += 1
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw error("expected \"\(word)\"") }
        index += expected.count
        return value
    }

    /// The number of ASCII digits from the current position on, passed over.
    private mutating func digits() -> Int {
        let from = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - from
    }

    /// A number, checked against the RFC 8259 grammar (section 6) and kept as text.
    private mutating func number() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integer = index
        guard digits() > 0 else { throw error("a number needs digits", at: start) }
        if bytes[integer] == UInt8(ascii: "0"), index - integer > 1 {
            throw error("a number may not start with 0", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a fraction needs digits", at: start) }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("an exponent needs digits", at: start) }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The text of `run`, checked as UTF-8 when the options ask it.
    private func text(_ run: Range<Int>) throws(JSONParseError) -> String {
        let slice = bytes[run]
        guard options.rejectsInvalidUTF8 else { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw error("invalid UTF-8 in a string", at: run.lowerBound, invalidUTF8: true)
        }
        return text
    }

    /// A string: escapes decoded, control characters refused, surrogate pairs joined.
    private mutating func string() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var run = index  // start of the current stretch without escapes
        var text = ""
        while true {
            guard index < bytes.count else { throw error("the string never ends", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += try self.text(run..<index)
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw error("a control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text += try self.text(run..<index)
            index += 1
            guard index < bytes.count else { throw error("the string never ends", at: start) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(escape))
            case UInt8(ascii: "b"): text += "\u{8}"
            case UInt8(ascii: "f"): text += "\u{C}"
            case UInt8(ascii: "n"): text += "\n"
            case UInt8(ascii: "r"): text += "\r"
            case UInt8(ascii: "t"): text += "\t"
            case UInt8(ascii: "u"): text.unicodeScalars.append(try unicodeEscape())
            default: throw error("unknown escape \\\(String(decoding: [escape], as: UTF8.self))", at: index - 2)
            }
            run = index
        }
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair; a lone surrogate is
    /// refused or becomes U+FFFD, as the options say.
    private mutating func unicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let start = index - 2
        let high = try hexQuad()
        if (0xD800...0xDBFF).contains(high), bytes[index...].starts(with: Array("\\u".utf8)) {
            let save = index
            index += 2
            let low = try hexQuad()
            if (0xDC00...0xDFFF).contains(low) {
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(UInt32(value)) ?? "\u{FFFD}"
            }
            index = save
        }
        if let scalar = Unicode.Scalar(UInt32(high)) { return scalar }
        if options.rejectsLoneSurrogates { throw error("a lone surrogate in a \\u escape", at: start) }
        return "\u{FFFD}"
    }

    private mutating func hexQuad() throws(JSONParseError) -> Int {
        guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var value = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: throw error("\\u needs four hex digits")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }
}
