/// An error from encoding, decoding or interpreting NDEF data.
///
/// The ``code`` is stable and is what equality compares, so callers and tests can match
/// on it; ``offset`` says where in the input the problem was found (a byte offset into the
/// message, or into the record payload for typed records), and ``reason`` explains it.
public struct NDEFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `empty-input`.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        // Message structure (NFC Forum NDEF 1.0, section 3).
        /// The input holds no bytes at all.
        public static let emptyInput = Code("empty-input")
        /// The input ends inside a record.
        public static let truncated = Code("truncated")
        /// The first record does not have the MB flag, or a later one does.
        public static let messageBeginMisplaced = Code("message-begin-misplaced")
        /// The last record does not have the ME flag.
        public static let missingMessageEnd = Code("missing-message-end")
        /// Bytes follow the record with the ME flag.
        public static let trailingBytes = Code("trailing-bytes")
        /// A TNF 0 (empty) record has a type, identifier or payload, or is chunked.
        public static let emptyRecordNotEmpty = Code("empty-record-not-empty")
        /// A TNF 5 (unknown) or 6 (unchanged) record has a TYPE field.
        public static let typeNotAllowed = Code("type-not-allowed")
        /// A record of TNF 1-4 has an empty TYPE field.
        public static let missingType = Code("missing-type")
        /// A TYPE field breaks the syntax its TNF requires (``NDEFTypeSyntax``: an RTD type name, a
        /// media type, an absolute URI, `domain:type`; US-ASCII only).
        public static let invalidType = Code("invalid-type")
        /// TNF 6 (unchanged) appears outside the middle or last chunk of a chunked record.
        public static let unexpectedUnchanged = Code("unexpected-unchanged")
        /// A middle or terminating chunk does not have TNF 6 (unchanged).
        public static let chunkNotUnchanged = Code("chunk-not-unchanged")
        /// A middle or terminating chunk carries an identifier.
        public static let chunkWithIdentifier = Code("chunk-with-identifier")
        /// The message ends (ME) while a chunked record is still open.
        public static let unterminatedChunk = Code("unterminated-chunk")
        /// The reserved TNF value 7 was found (decoded as unknown where allowed).
        public static let reservedTypeNameFormat = Code("reserved-tnf")
        /// More records than ``NDEFDecodingOptions/maximumRecordCount``: a limit of the decoder,
        /// not malformed data (lenient decoding returns the records before it, with this issue).
        public static let tooManyRecords = Code("too-many-records")
        /// Nested messages (Smart Poster, Handover) deeper than ``NDEFDecodingOptions/maximumNestingDepth``:
        /// a limit of the decoder, not malformed data.
        public static let nestingTooDeep = Code("nesting-too-deep")

        // Encoding.
        /// A message needs at least one record.
        public static let emptyMessage = Code("empty-message")
        /// A TYPE field longer than 255 bytes.
        public static let typeTooLong = Code("type-too-long")
        /// An ID field longer than 255 bytes.
        public static let identifierTooLong = Code("identifier-too-long")
        /// A payload longer than 2³² − 1 bytes, or a message larger than memory allows.
        public static let payloadTooLong = Code("payload-too-long")
        /// The chunk size is not positive.
        public static let invalidChunkSize = Code("invalid-chunk-size")

        // Typed records.
        /// The record is not of the type the interpretation reads.
        public static let wrongRecordType = Code("wrong-record-type")
        /// The payload of a typed record is malformed.
        public static let invalidPayload = Code("invalid-payload")
        /// A value given to a record builder cannot be encoded.
        public static let invalidValue = Code("invalid-value")

        /// Every code this version knows, in the order above.
        public static let allCases: [Code] = [
            .emptyInput,
            .truncated,
            .messageBeginMisplaced,
            .missingMessageEnd,
            .trailingBytes,
            .emptyRecordNotEmpty,
            .typeNotAllowed,
            .missingType,
            .invalidType,
            .unexpectedUnchanged,
            .chunkNotUnchanged,
            .chunkWithIdentifier,
            .unterminatedChunk,
            .reservedTypeNameFormat,
            .tooManyRecords,
            .nestingTooDeep,
            .emptyMessage,
            .typeTooLong,
            .identifierTooLong,
            .payloadTooLong,
            .invalidChunkSize,
            .wrongRecordType,
            .invalidPayload,
            .invalidValue,
        ]
    }

    /// The stable error code.
    public var code: Code
    /// The byte offset of the problem in the input, where one applies.
    public var offset: Int?
    /// A human explanation of the problem.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int? = nil, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// Errors are equal when their codes are: offsets and wording may be refined.
    public static func == (lhs: NDEFError, rhs: NDEFError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        if let offset { "\(reason) (at byte \(offset), \(code.rawValue))" } else { "\(reason) (\(code.rawValue))" }
    }

    /// Whether the error is a limit of the decoder (``NDEFDecodingOptions``) rather than a
    /// violation of NDEF 1.0: the data may be valid, only larger or deeper than allowed.
    public var isLimit: Bool { code == .tooManyRecords || code == .nestingTooDeep }

    /// The error as one line for people, naming where the message came from:
    /// `malformed NDEF message in 'tag.ndef' at byte 12: the input ends inside a record (truncated)`,
    /// or `NDEF message over a decoding limit ...` for a limit (``isLimit``).
    public func summary(in source: String? = nil) -> String {
        var text = isLimit ? "NDEF message over a decoding limit" : "malformed NDEF message"
        if let source { text += " in \(source)" }
        if let offset { text += " at byte \(offset)" }
        return text + ": \(reason) (\(code.rawValue))"
    }

    /// The same error with its offset moved by `delta`, for errors found inside a nested buffer.
    func shifted(by delta: Int) -> NDEFError {
        var copy = self
        copy.offset = offset.map { $0 + delta }
        return copy
    }
}

/// An error code with a stable identifier, in an open set: a struct with a constant per code
/// (as swift-asn1's `ASN1Error.ErrorCode`), so a later version can add codes without breaking a
/// client's `switch` (which needs a `default`). The identifiers (`invalid-type`) are what JSON
/// output and scripts see, and never change meaning.
///
/// The error codes of ``NDEFError``, and those of the tag-memory, session and provisioning
/// libraries, conform. A conforming type stores its `rawValue` and lists the
/// codes it knows in `allCases`; this protocol gives it the rest.
public protocol StableErrorCode: RawRepresentable, CaseIterable, Sendable, Hashable, Codable,
    CustomStringConvertible
where RawValue == String, AllCases == [Self] {}

extension StableErrorCode {
    /// The code whose identifier is `rawValue`, when it is one this version knows.
    public init?(rawValue: String) {
        guard let code = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = code
    }

    /// The stable identifier.
    public var description: String { rawValue }
}
