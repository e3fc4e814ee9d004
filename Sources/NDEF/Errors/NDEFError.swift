/// An error from encoding, decoding or interpreting NDEF data.
///
/// The ``code`` is stable and is what equality compares, so callers and tests can match
/// on it; ``offset`` says where in the input the problem was found (a byte offset into the
/// message, or into the record payload for typed records), and ``reason`` explains it.
public struct NDEFError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `empty-input`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        // Message structure (NFC Forum NDEF 1.0, section 3).
        /// The input holds no bytes at all.
        public static let emptyInput = Code(.emptyInput)
        /// The input ends inside a record.
        public static let truncated = Code(.truncated)
        /// The first record does not have the MB flag, or a later one does.
        public static let messageBeginMisplaced = Code(.messageBeginMisplaced)
        /// The last record does not have the ME flag.
        public static let missingMessageEnd = Code(.missingMessageEnd)
        /// Bytes follow the record with the ME flag.
        public static let trailingBytes = Code(.trailingBytes)
        /// A TNF 0 (empty) record has a type, identifier or payload, or is chunked.
        public static let emptyRecordNotEmpty = Code(.emptyRecordNotEmpty)
        /// A TNF 5 (unknown) or 6 (unchanged) record has a TYPE field.
        public static let typeNotAllowed = Code(.typeNotAllowed)
        /// A record of TNF 1-4 has an empty TYPE field.
        public static let missingType = Code(.missingType)
        /// A TYPE field breaks the syntax its TNF requires (``NDEFTypeSyntax``: an RTD type name, a
        /// media type, an absolute URI, `domain:type`; US-ASCII only).
        public static let invalidType = Code(.invalidType)
        /// TNF 6 (unchanged) appears outside the middle or last chunk of a chunked record.
        public static let unexpectedUnchanged = Code(.unexpectedUnchanged)
        /// A middle or terminating chunk does not have TNF 6 (unchanged).
        public static let chunkNotUnchanged = Code(.chunkNotUnchanged)
        /// A middle or terminating chunk carries an identifier.
        public static let chunkWithIdentifier = Code(.chunkWithIdentifier)
        /// The message ends (ME) while a chunked record is still open.
        public static let unterminatedChunk = Code(.unterminatedChunk)
        /// The reserved TNF value 7 was found (decoded as unknown where allowed).
        public static let reservedTypeNameFormat = Code(.reservedTypeNameFormat)
        /// More records than ``NDEFDecodingOptions/maximumRecordCount``: a limit of the decoder,
        /// not malformed data (lenient decoding returns the records before it, with this issue).
        public static let tooManyRecords = Code(.tooManyRecords)
        /// Nested messages (Smart Poster, Handover) deeper than ``NDEFDecodingOptions/maximumNestingDepth``:
        /// a limit of the decoder, not malformed data.
        public static let nestingTooDeep = Code(.nestingTooDeep)

        // Encoding.
        /// A message needs at least one record.
        public static let emptyMessage = Code(.emptyMessage)
        /// A TYPE field longer than 255 bytes.
        public static let typeTooLong = Code(.typeTooLong)
        /// An ID field longer than 255 bytes.
        public static let identifierTooLong = Code(.identifierTooLong)
        /// A payload longer than 2³² − 1 bytes, or a message larger than memory allows.
        public static let payloadTooLong = Code(.payloadTooLong)
        /// The chunk size is not positive.
        public static let invalidChunkSize = Code(.invalidChunkSize)

        // Typed records.
        /// The record is not of the type the interpretation reads.
        public static let wrongRecordType = Code(.wrongRecordType)
        /// The payload of a typed record is malformed.
        public static let invalidPayload = Code(.invalidPayload)
        /// A value given to a record builder cannot be encoded.
        public static let invalidValue = Code(.invalidValue)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case emptyInput = "empty-input"
            case truncated = "truncated"
            case messageBeginMisplaced = "message-begin-misplaced"
            case missingMessageEnd = "missing-message-end"
            case trailingBytes = "trailing-bytes"
            case emptyRecordNotEmpty = "empty-record-not-empty"
            case typeNotAllowed = "type-not-allowed"
            case missingType = "missing-type"
            case invalidType = "invalid-type"
            case unexpectedUnchanged = "unexpected-unchanged"
            case chunkNotUnchanged = "chunk-not-unchanged"
            case chunkWithIdentifier = "chunk-with-identifier"
            case unterminatedChunk = "unterminated-chunk"
            case reservedTypeNameFormat = "reserved-tnf"
            case tooManyRecords = "too-many-records"
            case nestingTooDeep = "nesting-too-deep"
            case emptyMessage = "empty-message"
            case typeTooLong = "type-too-long"
            case identifierTooLong = "identifier-too-long"
            case payloadTooLong = "payload-too-long"
            case invalidChunkSize = "invalid-chunk-size"
            case wrongRecordType = "wrong-record-type"
            case invalidPayload = "invalid-payload"
            case invalidValue = "invalid-value"
        }
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

    /// ``offset``.
    public var byteOffset: Int? { offset }

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
