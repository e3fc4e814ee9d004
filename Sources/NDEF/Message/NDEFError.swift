/// An error from encoding, decoding or interpreting NDEF data.
///
/// The ``code`` is stable and is what equality compares, so callers and tests can match
/// on it; ``offset`` says where in the input the problem was found (a byte offset into the
/// message, or into the record payload for typed records), and ``reason`` explains it.
public struct NDEFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. The raw values are stable identifiers.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        // Message structure (NFC Forum NDEF 1.0, section 3).
        /// The input holds no bytes at all.
        case emptyInput = "empty-input"
        /// The input ends inside a record.
        case truncated
        /// The first record does not have the MB flag, or a later one does.
        case messageBeginMisplaced = "message-begin-misplaced"
        /// The last record does not have the ME flag.
        case missingMessageEnd = "missing-message-end"
        /// Bytes follow the record with the ME flag.
        case trailingBytes = "trailing-bytes"
        /// A TNF 0 (empty) record has a type, identifier or payload, or is chunked.
        case emptyRecordNotEmpty = "empty-record-not-empty"
        /// A TNF 5 (unknown) or 6 (unchanged) record has a TYPE field.
        case typeNotAllowed = "type-not-allowed"
        /// A record of TNF 1-4 has an empty TYPE field.
        case missingType = "missing-type"
        /// A TYPE field breaks the syntax its TNF requires (``NDEFTypeSyntax``: an RTD type name, a
        /// media type, an absolute URI, `domain:type`; US-ASCII only).
        case invalidType = "invalid-type"
        /// TNF 6 (unchanged) appears outside the middle or last chunk of a chunked record.
        case unexpectedUnchanged = "unexpected-unchanged"
        /// A middle or terminating chunk does not have TNF 6 (unchanged).
        case chunkNotUnchanged = "chunk-not-unchanged"
        /// A middle or terminating chunk carries an identifier.
        case chunkWithIdentifier = "chunk-with-identifier"
        /// The message ends (ME) while a chunked record is still open.
        case unterminatedChunk = "unterminated-chunk"
        /// The reserved TNF value 7 was found (decoded as unknown where allowed).
        case reservedTypeNameFormat = "reserved-tnf"
        /// More records than ``NDEFDecodingOptions/maximumRecordCount``: a limit of the decoder,
        /// not malformed data (lenient decoding returns the records before it, with this issue).
        case tooManyRecords = "too-many-records"
        /// Nested messages (Smart Poster, Handover) deeper than ``NDEFDecodingOptions/maximumNestingDepth``:
        /// a limit of the decoder, not malformed data.
        case nestingTooDeep = "nesting-too-deep"

        // Encoding.
        /// A message needs at least one record.
        case emptyMessage = "empty-message"
        /// A TYPE field longer than 255 bytes.
        case typeTooLong = "type-too-long"
        /// An ID field longer than 255 bytes.
        case identifierTooLong = "identifier-too-long"
        /// A payload longer than 2³² − 1 bytes, or a message larger than memory allows.
        case payloadTooLong = "payload-too-long"
        /// The chunk size is not positive.
        case invalidChunkSize = "invalid-chunk-size"

        // Typed records.
        /// The record is not of the type the interpretation reads.
        case wrongRecordType = "wrong-record-type"
        /// The payload of a typed record is malformed.
        case invalidPayload = "invalid-payload"
        /// A value given to a record builder cannot be encoded.
        case invalidValue = "invalid-value"
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

    /// The same error with its offset moved by `delta`, for errors found inside a nested buffer.
    func shifted(by delta: Int) -> NDEFError {
        var copy = self
        copy.offset = offset.map { $0 + delta }
        return copy
    }
}
