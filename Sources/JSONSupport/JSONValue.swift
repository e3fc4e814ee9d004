/// A JSON value (RFC 8259) read by ``JSONValue/parse(_:options:)``, for the modules that stay
/// free of Foundation (tag dumps, provisioning journals and plans). Objects keep their members
/// in the order of the text, each with the byte offset of its value, for error messages.
/// Shared by the modules of this package (`package` access), not API.
package indirect enum JSONValue: Sendable, Equatable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    /// A number as written (checked against the RFC 8259 grammar, not converted).
    case number(String)
    case bool(Bool)
    case null

    /// One member of an object.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
        /// The byte offset of the value in the parsed text.
        package var offset: Int

        package init(key: String, value: JSONValue, offset: Int) {
            self.key = key
            self.value = value
            self.offset = offset
        }

        /// Members are equal when their keys and values are (offsets are where they were read).
        package static func == (lhs: Member, rhs: Member) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }
    }

    /// The member named `key` of an object (the first, if repeated), or nil.
    package func member(_ key: String) -> Member? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }
    }

    /// The value of the member `key` of an object, or nil.
    package subscript(key: String) -> JSONValue? { member(key)?.value }

    /// The string, if this is one.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as an `Int`, if this is an integer that fits.
    package var int: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// A one-word name of the value's kind, for messages: `an object`, `a string`.
    package var kind: String {
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

/// Why ``JSONValue/parse(_:options:)`` refused its input, and where.
package struct JSONParseError: Error, Sendable, Equatable {
    /// The byte offset of the problem in the text.
    package var offset: Int
    /// What is wrong.
    package var reason: String
    /// Whether the problem is bytes that are not UTF-8 (with ``JSONParseOptions/rejectsInvalidUTF8``).
    package var isInvalidUTF8: Bool

    package init(offset: Int, reason: String, isInvalidUTF8: Bool = false) {
        self.offset = offset
        self.reason = reason
        self.isInvalidUTF8 = isInvalidUTF8
    }

    /// The line of `offset` in `bytes`, from 1.
    package func line(in bytes: [UInt8]) -> Int {
        Self.line(of: offset, in: bytes)
    }

    /// The line of `offset` in `bytes`, from 1.
    package static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<min(max(offset, 0), bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}

/// How strictly ``JSONValue/parse(_:options:)`` reads.
package struct JSONParseOptions: Sendable {
    /// Objects and arrays nested deeper than this are refused, so parsing never recurses
    /// without bound.
    package var maximumDepth: Int
    /// Whether an object may not repeat a key.
    package var rejectsDuplicateKeys: Bool
    /// Whether bytes in a string that are not UTF-8 are refused (RFC 8259, 8.1) instead of
    /// read as U+FFFD.
    package var rejectsInvalidUTF8: Bool
    /// Whether a `\u` escape of a lone surrogate is refused instead of read as U+FFFD.
    package var rejectsLoneSurrogates: Bool

    package init(
        maximumDepth: Int, rejectsDuplicateKeys: Bool, rejectsInvalidUTF8: Bool, rejectsLoneSurrogates: Bool
    ) {
        self.maximumDepth = maximumDepth
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
        self.rejectsInvalidUTF8 = rejectsInvalidUTF8
        self.rejectsLoneSurrogates = rejectsLoneSurrogates
    }
}
