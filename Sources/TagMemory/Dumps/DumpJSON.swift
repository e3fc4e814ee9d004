/// A JSON value (RFC 8259) as read from a dump file. Objects keep their keys in file order
/// with the byte offset of each value, for error messages.
indirect enum DumpJSON: Sendable {
    case object([Member])
    case array([DumpJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// One key and its value in an object.
    struct Member: Sendable {
        var key: String
        var value: DumpJSON
        var offset: Int
    }

    /// The deepest nesting of objects and arrays read; deeper input is refused, so reading
    /// never recurses without bound.
    static let maximumDepth = 32

    /// Parses `bytes` as one JSON value, surrounded by nothing but whitespace. Objects may not
    /// repeat a key.
    static func parse(_ bytes: [UInt8]) throws(TagMemoryError) -> DumpJSON {
        var parser = DumpJSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("text follows the JSON value") }
        return value
    }

    /// The member named `key`, when this is an object that has it.
    func member(_ key: String) -> Member? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }
    }

    /// A one-word name of the value's kind, for messages.
    var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A recursive-descent JSON reader over bytes; errors name the line and byte offset.
struct DumpJSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A ``TagMemoryError/Code/malformedDump`` at `offset` (the current position when nil).
    func error(_ reason: String, at offset: Int? = nil) -> TagMemoryError {
        DumpJSONParser.error(in: bytes, at: offset ?? index, reason)
    }

    /// A ``TagMemoryError/Code/malformedDump`` at `offset` in `bytes`, naming its line.
    static func error(in bytes: [UInt8], at offset: Int, _ reason: String) -> TagMemoryError {
        let line = 1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return TagMemoryError(.malformedDump, at: offset, "line \(line): \(reason)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Reads the value starting at the current position.
    mutating func value(depth: Int) throws(TagMemoryError) -> DumpJSON {
        guard index < bytes.count else { throw error("the JSON text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a JSON value, found \(DumpText.quoted(bytes[index...].prefix(1)))")
        }
    }

    private mutating func object(depth: Int) throws(TagMemoryError) -> DumpJSON {
        guard depth <= DumpJSON.maximumDepth else { throw error("objects and arrays nest too deeply") }
        index += 1
        var members: [DumpJSON.Member] = []
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
            guard keys.insert(key).inserted else { throw error("the key \"\(key)\" appears twice", at: keyOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "\":\" after the key \"\(key)\"")
            skipWhitespace()
            let offset = index
            members.append(DumpJSON.Member(key: key, value: try value(depth: depth), offset: offset))
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "\",\" or \"}\" in the object")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(TagMemoryError) -> DumpJSON {
        guard depth <= DumpJSON.maximumDepth else { throw error("objects and arrays nest too deeply") }
        index += 1
        var elements: [DumpJSON] = []
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

    private mutating func expect(_ byte: UInt8, _ what: String) throws(TagMemoryError) {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
        index += 1
    }

    private mutating func literal(_ word: String, _ value: DumpJSON) throws(TagMemoryError) -> DumpJSON {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw error("expected \"\(word)\"") }
        index += expected.count
        return value
    }

    /// A number, checked against the RFC 8259 grammar and kept as text.
    private mutating func number() throws(TagMemoryError) -> String {
        let start = index
        func digits(_ parser: inout DumpJSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integer = index
        guard digits(&self) > 0 else { throw error("a number needs digits", at: start) }
        if bytes[integer] == UInt8(ascii: "0"), index - integer > 1 {
            throw error("a number may not start with 0", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("a fraction needs digits", at: start) }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("an exponent needs digits", at: start) }
        }
        return DumpText.string(bytes[start..<index])
    }

    /// A string: escapes decoded, control characters refused, surrogate pairs joined.
    private mutating func string() throws(TagMemoryError) -> String {
        let start = index
        index += 1
        var run = index  // start of the current stretch without escapes
        var text = ""
        while true {
            guard index < bytes.count else { throw error("the string never ends", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += DumpText.string(bytes[run..<index])
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw error("a control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text += DumpText.string(bytes[run..<index])
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
            default: throw error("unknown escape \\\(DumpText.string([escape][...]))", at: index - 2)
            }
            run = index
        }
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair; a lone surrogate
    /// becomes U+FFFD.
    private mutating func unicodeEscape() throws(TagMemoryError) -> Unicode.Scalar {
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
        return Unicode.Scalar(UInt32(high)) ?? "\u{FFFD}"
    }

    private mutating func hexQuad() throws(TagMemoryError) -> Int {
        guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var value = 0
        for offset in 0..<4 {
            guard let digit = DumpText.hexDigit(bytes[index + offset]) else { throw error("\\u needs four hex digits") }
            value = value << 4 | Int(digit)
        }
        index += 4
        return value
    }
}
