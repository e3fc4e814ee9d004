/// Decodes the records of an NDEF message (NFC Forum NDEF 1.0, sections 3.1-3.3).
///
/// Every rule of the specification is checked. In strict mode the first violation throws;
/// in lenient mode the decoder records it in ``issues``, applies the recovery named at each
/// check, and goes on. Either way it never traps: every length is checked against the bytes
/// that remain before it is used.
///
/// Records are located as index ranges first (``NDEFRecordCursor``) and become
/// ``NFCNDEFPayload`` slices of the input only once they are accepted, so a valid record costs
/// one slice per field and no copy. One decoder serves strict and lenient decoding; plain
/// valid messages (no chunks) are read by ``decodePlain(_:maximumRecordCount:)`` first, on the
/// same cursor and by the same rules, and everything else comes here.
struct NDEFMessageDecoder {
    let options: NDEFDecodingOptions
    let lenient: Bool
    /// Whether the records are built; without, decoding only checks the message (strict
    /// validation before ``NDEFRecordSequence`` reads the records one by one).
    let collecting: Bool
    private(set) var issues: [NDEFError] = []
    /// How many logical records have been accepted (built or not).
    private var keptCount = 0

    private let bytes: ArraySlice<UInt8>
    private var records: [NFCNDEFPayload] = []
    /// Where a chunked record whose terminating chunk has not been seen yet started. The
    /// record itself is the last one kept: its chunks' payloads are appended to it in place.
    private var openChunkOffset: Int?

    init(_ bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions, lenient: Bool, collecting: Bool = true) {
        self.bytes = bytes
        self.options = options
        self.lenient = lenient
        self.collecting = collecting
    }

    /// Throws `error` in strict mode; notes it in lenient mode so the caller can recover.
    private mutating func violation(_ error: NDEFError) throws(NDEFError) {
        if !lenient { throw error }
        issues.append(error)
    }

    mutating func decode() throws(NDEFError) -> [NFCNDEFPayload] {
        guard !bytes.isEmpty else {
            throw NDEFError(.emptyInput, at: 0, "no bytes to decode: an NDEF message has at least one record")
        }
        let bytes = self.bytes
        return try bytes.withUnsafeBufferPointer { (buffer) throws(NDEFError) in
            try decode(NDEFRecordCursor(buffer, base: bytes.startIndex))
        }
    }

    /// Decodes the records `cursor` walks (valid for the duration of the call).
    private mutating func decode(_ start: NDEFRecordCursor) throws(NDEFError) -> [NFCNDEFPayload] {
        var cursor = start
        if collecting { records.reserveCapacity(cursor.recordCount(limit: options.maximumRecordCount)) }
        var physicalCount = 0
        var sawMessageEnd = false

        while !cursor.isAtEnd {
            let offset = cursor.offset
            if physicalCount >= options.maximumRecordCount {
                // A limit, not malformed data: lenient decoding keeps the records before it.
                let limit = NDEFError(
                    .tooManyRecords, at: offset,
                    "more than \(options.maximumRecordCount) records (the decoder's limit, "
                        + "NDEFDecodingOptions.maximumRecordCount)")
                guard lenient, keptCount > 0 else { throw limit }
                issues.append(limit)
                openChunkOffset = nil
                return records
            }
            let physical: NDEFPhysicalRecord
            do {
                physical = try cursor.next(number: physicalCount)
            } catch {
                try violation(error)
                break  // lenient: a truncated record cannot be recovered; keep what came before it
            }
            physicalCount += 1

            let header = physical.header
            if header.isMessageBegin != (physicalCount == 1) {
                let reason =
                    physicalCount == 1
                    ? "the first record lacks the MB (message begin) flag"
                    : "record \(physicalCount - 1) has the MB flag, which only the first record may have"
                try violation(NDEFError(.messageBeginMisplaced, at: offset, reason))
            }

            if openChunkOffset != nil {
                try continueChunk(physical, at: offset, in: cursor)
            } else {
                try startRecord(physical, at: offset, in: cursor)
            }

            if header.isMessageEnd {
                sawMessageEnd = true
                if openChunkOffset != nil {
                    try violation(
                        NDEFError(.unterminatedChunk, at: offset, "the message ends (ME) inside a chunked record"))
                    openChunkOffset = nil  // lenient: keep the chunks seen so far
                }
                if !cursor.isAtEnd {
                    try violation(
                        NDEFError(
                            .trailingBytes, at: cursor.offset,
                            "\(cursor.remainingCount) bytes follow the last (ME) record")
                    )
                }
                break  // lenient: trailing bytes are ignored
            }
        }

        if !sawMessageEnd {
            if keptCount == 0, let first = issues.first {
                throw first  // nothing could be recovered
            }
            if issues.last?.code != .truncated {
                try violation(
                    NDEFError(.missingMessageEnd, at: bytes.count, "the last record lacks the ME (message end) flag"))
            }
            if let chunkOffset = openChunkOffset {
                if issues.last?.code != .truncated {
                    try violation(
                        NDEFError(.unterminatedChunk, at: chunkOffset, "the input ends inside a chunked record"))
                }
                openChunkOffset = nil  // lenient: keep the chunks seen so far
            }
        }
        if keptCount == 0, let first = issues.first { throw first }
        return records
    }

    /// Checks a record that is not a continuation chunk and adds it (or opens a chunked record).
    private mutating func startRecord(
        _ physical: NDEFPhysicalRecord, at offset: Int, in cursor: NDEFRecordCursor
    ) throws(NDEFError) {
        var format = physical.format
        var type = physical.type
        var typeIsChecked = true
        switch format {
        case .empty:
            if !(type.isEmpty && physical.identifier.isEmpty && physical.payload.isEmpty) {
                try violation(
                    NDEFError(.emptyRecordNotEmpty, at: offset, "an empty (TNF 0) record has a type, ID or payload"))
                // lenient: keep the ID and payload as an unknown record; drop the type
                type = type.lowerBound..<type.lowerBound
                if !(physical.identifier.isEmpty && physical.payload.isEmpty) { format = .unknown }
            }
            // NDEF 1.0, 3.2.6: TNF 0 means no type and no payload, and 2.3.3: the first chunk
            // names the type of the whole chunked payload, so an empty record cannot be chunked.
            if physical.header.isChunked && format == .empty {
                try violation(
                    NDEFError(.emptyRecordNotEmpty, at: offset, "an empty (TNF 0) record has the CF (chunk) flag"))
                format = .unknown  // lenient: the chunks' payload as an unknown record
            }
        case .unknown, .reserved:
            // NDEF 1.0, 3.2.6: a reader treats TNF 7 as unknown (TNF 5); the record keeps TNF 7,
            // so that a round trip does not turn it into TNF 5 without a word (the encoder
            // refuses TNF 7).
            if format == .reserved, lenient {
                issues.append(
                    NDEFError(.reservedTypeNameFormat, at: offset, "reserved TNF 7, read as unknown (TNF 5)"))
            }
            if !type.isEmpty {
                try violation(
                    NDEFError(
                        .typeNotAllowed, at: offset,
                        "an unknown (TNF \(format.rawValue)) record has a type"))
                type = type.lowerBound..<type.lowerBound  // lenient: drop it
            }
        case .unchanged:
            try violation(
                NDEFError(
                    .unexpectedUnchanged, at: offset,
                    "TNF 6 (unchanged) outside a chunked record's middle or last chunk")
            )
            format = .unknown  // lenient: read it as unknown
            type = type.lowerBound..<type.lowerBound
        case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
            typeIsChecked = false
            if type.isEmpty {
                try violation(
                    NDEFError(
                        .missingType, at: offset,
                        "a \(format.name) (TNF \(format.rawValue)) record has an empty type"))
            } else if let problem = NDEFTypeSyntax.problem(format, cursor.type(of: physical)) {
                // lenient: the record is kept as it is, with the issue
                try violation(
                    NDEFError(
                        .invalidType, at: type.lowerBound - bytes.startIndex,
                        "the TYPE of a \(format.name) (TNF \(format.rawValue)) record \(problem)"))
            } else {
                typeIsChecked = true
            }
        }
        keptCount += 1
        if physical.header.isChunked { openChunkOffset = offset }
        guard collecting else { return }
        // Appended as built, so the record is moved into the array, not copied.
        records.append(
            NFCNDEFPayload(
                format: format, in: bytes, type: type, identifier: physical.identifier, payload: physical.payload,
                typeIsChecked: typeIsChecked))
        if physical.header.isChunked { records[records.count - 1].chunkSizes = [physical.payload.count] }
    }

    /// Checks a middle or terminating chunk and appends its payload to the open record.
    private mutating func continueChunk(
        _ physical: NDEFPhysicalRecord, at offset: Int, in cursor: NDEFRecordCursor
    ) throws(NDEFError) {
        guard openChunkOffset != nil else { return }
        guard physical.format == .unchanged else {
            try violation(
                NDEFError(
                    .chunkNotUnchanged, at: offset,
                    "a chunk after the first has TNF \(physical.format.rawValue), not 6 (unchanged)")
            )
            // lenient: the chunked record ends here; this one starts afresh
            openChunkOffset = nil
            try startRecord(physical, at: offset, in: cursor)
            return
        }
        if !physical.type.isEmpty {
            try violation(NDEFError(.typeNotAllowed, at: offset, "a chunk after the first has a type"))
        }
        if physical.header.hasIdentifierLength {
            try violation(NDEFError(.chunkWithIdentifier, at: offset, "a chunk after the first has an ID (IL flag)"))
        }
        if !physical.header.isChunked { openChunkOffset = nil }
        guard collecting, !records.isEmpty else { return }
        // In place: the payload grows in its own storage (copied from the input once, at the
        // second chunk) instead of being copied whole for every chunk.
        let last = records.count - 1
        records[last].appendToPayload(bytes[physical.payload])
        records[last].chunkSizes?.append(physical.payload.count)
    }
}

/// Limits that keep decoding bounded on hostile input.
///
/// NFC Forum NDEF 1.0 allows payloads up to 2³² − 1 bytes and any number of records; a
/// decoder facing untrusted data caps the record count and the nesting depth of messages
/// inside records (Smart Poster, Handover). Payload sizes are bounded by the input itself.
public struct NDEFDecodingOptions: Sendable, Hashable {
    /// The most physical records (chunks count one each) a message may have.
    public var maximumRecordCount: Int
    /// How many levels of messages nested in record payloads are decoded.
    ///
    /// A top-level message is depth 0; a Smart Poster's inner message is depth 1.
    public var maximumNestingDepth: Int

    /// Creates options; the defaults suit any real tag (the largest hold a few kilobytes).
    public init(maximumRecordCount: Int = 16_384, maximumNestingDepth: Int = 4) {
        self.maximumRecordCount = maximumRecordCount
        self.maximumNestingDepth = maximumNestingDepth
    }

    /// The options for a message nested one level deeper, or an error when that is too deep.
    public func nested(at offset: Int? = nil) throws(NDEFError) -> NDEFDecodingOptions {
        guard maximumNestingDepth > 0 else {
            throw NDEFError(.nestingTooDeep, at: offset, "messages nested deeper than allowed")
        }
        var inner = self
        inner.maximumNestingDepth -= 1
        return inner
    }
}

/// What lenient decoding recovered, and the problems it stepped over.
public struct NDEFRecovery: Sendable, Hashable {
    /// The records that could be recovered.
    public var message: NFCNDEFMessage
    /// Each deviation from NDEF 1.0 that was tolerated, in input order, with its offset.
    public var issues: [NDEFError]

    /// Whether the input was a valid message (nothing had to be skipped or repaired).
    public var isClean: Bool { issues.isEmpty }
}

extension NDEFMessageDecoder {
    /// The records of `bytes` when it is a plain valid message, or nil so the full decoder can
    /// take over and report exactly what is wrong.
    ///
    /// "Plain" means no chunked records: every record is complete, MB is set on the first
    /// record only, ME on the last only, nothing follows it, TNF 0 records are empty, TNF 1-4
    /// records have a type of the syntax their TNF requires (``NDEFTypeSyntax``) and TNF 5
    /// records have none (NDEF 1.0, 3.2.6). TNF 6 and 7 and every other case go to the full
    /// decoder. Both walk the records with ``NDEFRecordCursor``, so they agree on where each
    /// record is; whatever this accepts the full decoder accepts with the same records (the
    /// decoder fuzz target and `PlainMessageTests` check it).
    static func decodePlain(_ bytes: ArraySlice<UInt8>, maximumRecordCount: Int) -> [NFCNDEFPayload]? {
        var records: [NFCNDEFPayload] = []
        let plain = bytes.withUnsafeBufferPointer { buffer in
            // One pass: each record is built as soon as it is checked (most messages are one or
            // two records, so growing the array costs less than a second walk to count them).
            plainRecordCount(NDEFRecordCursor(buffer, base: bytes.startIndex), maximumRecordCount: maximumRecordCount) {
                record in
                records.append(
                    NFCNDEFPayload(
                        format: record.format, in: bytes, type: record.type, identifier: record.identifier,
                        payload: record.payload, typeIsChecked: true))
            } != nil
        }
        return plain ? records : nil
    }

    /// Whether `bytes` is a plain valid message (see ``decodePlain(_:maximumRecordCount:)``).
    static func isPlain(_ bytes: ArraySlice<UInt8>, maximumRecordCount: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            plainRecordCount(NDEFRecordCursor(buffer, base: bytes.startIndex), maximumRecordCount: maximumRecordCount)
                != nil
        }
    }

    /// How many records the message `cursor` walks has when it is plain, or nil when it is not;
    /// `accept` sees each record once it is checked (some may have been seen before a nil).
    private static func plainRecordCount(
        _ start: NDEFRecordCursor,
        maximumRecordCount: Int,
        accept: (NDEFPhysicalRecord) -> Void = { _ in }
    ) -> Int? {
        var cursor = start
        var count = 0
        while !cursor.isAtEnd {
            guard count < maximumRecordCount, let record = try? cursor.next(number: count) else { return nil }
            let header = record.header
            guard !header.isChunked, header.isMessageBegin == (count == 0) else { return nil }
            switch record.format {
            case .empty:
                guard record.type.isEmpty, record.identifier.isEmpty, record.payload.isEmpty else { return nil }
            case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
                guard !record.type.isEmpty, NDEFTypeSyntax.problem(record.format, cursor.type(of: record)) == nil else {
                    return nil
                }
            case .unknown:
                guard record.type.isEmpty else { return nil }
            case .unchanged, .reserved:
                return nil
            }
            count += 1
            accept(record)
            if header.isMessageEnd { return cursor.isAtEnd ? count : nil }
        }
        return nil  // empty, or no ME record
    }
}
