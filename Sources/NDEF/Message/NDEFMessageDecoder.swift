/// Decodes the records of an NDEF message (NFC Forum NDEF 1.0, sections 3.1-3.3).
///
/// Every rule of the specification is checked. In strict mode the first violation throws;
/// in lenient mode the decoder records it in ``issues``, applies the recovery named at each
/// check, and goes on. Either way it never traps: every length is checked against the bytes
/// that remain before it is used.
///
/// Records are located as index ranges first and become ``NFCNDEFPayload`` slices of the
/// input only once they are accepted, so a valid record costs one slice per field and no copy.
struct NDEFMessageDecoder {
    let options: NDEFDecodingOptions
    let lenient: Bool
    private(set) var issues: [NDEFError] = []

    private let bytes: ArraySlice<UInt8>
    private var records: [NFCNDEFPayload] = []
    /// A chunked record whose terminating chunk has not been seen yet, and where it started.
    private var open: (record: NFCNDEFPayload, offset: Int)?

    init(_ bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions, lenient: Bool) {
        self.bytes = bytes
        self.options = options
        self.lenient = lenient
    }

    /// One physical record as laid out in the input: its header and the index ranges of its fields.
    private struct PhysicalRecord {
        var header: NDEFRecordHeader
        var format: NFCTypeNameFormat
        var type: Range<Int>
        var identifier: Range<Int>
        var payload: Range<Int>
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
        let base = bytes.startIndex
        var index = base
        var physicalCount = 0
        var sawMessageEnd = false

        while index < bytes.endIndex {
            let offset = index - base
            if physicalCount >= options.maximumRecordCount {
                // A limit, not malformed data: lenient decoding keeps the records before it.
                let limit = NDEFError(
                    .tooManyRecords, at: offset,
                    "more than \(options.maximumRecordCount) records (the decoder's limit, "
                        + "NDEFDecodingOptions.maximumRecordCount)")
                guard lenient, !records.isEmpty || open != nil else { throw limit }
                issues.append(limit)
                if let chunk = open {
                    records.append(chunk.record)
                    open = nil
                }
                return records
            }
            let physical: PhysicalRecord
            do {
                physical = try readRecord(at: &index, offset: offset, number: physicalCount)
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

            if open != nil {
                try continueChunk(physical, at: offset)
            } else {
                try startRecord(physical, at: offset)
            }

            if header.isMessageEnd {
                sawMessageEnd = true
                if let chunk = open {
                    try violation(
                        NDEFError(.unterminatedChunk, at: offset, "the message ends (ME) inside a chunked record"))
                    records.append(chunk.record)  // lenient: keep the chunks seen so far
                    open = nil
                }
                if index < bytes.endIndex {
                    try violation(
                        NDEFError(
                            .trailingBytes, at: index - base,
                            "\(bytes.endIndex - index) bytes follow the last (ME) record")
                    )
                }
                break  // lenient: trailing bytes are ignored
            }
        }

        if !sawMessageEnd {
            if records.isEmpty && open == nil, let first = issues.first {
                throw first  // nothing could be recovered
            }
            if issues.last?.code != .truncated {
                try violation(
                    NDEFError(.missingMessageEnd, at: bytes.count, "the last record lacks the ME (message end) flag"))
            }
            if let chunk = open {
                if issues.last?.code != .truncated {
                    try violation(
                        NDEFError(.unterminatedChunk, at: chunk.offset, "the input ends inside a chunked record"))
                }
                records.append(chunk.record)
                open = nil
            }
        }
        if records.isEmpty, let first = issues.first { throw first }
        return records
    }

    /// Checks a record that is not a continuation chunk and adds it (or opens a chunked record).
    private mutating func startRecord(_ physical: PhysicalRecord, at offset: Int) throws(NDEFError) {
        var format = physical.format
        var type = physical.type
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
            if type.isEmpty {
                try violation(
                    NDEFError(
                        .missingType, at: offset,
                        "a \(format.name) (TNF \(format.rawValue)) record has an empty type"))
            } else if let problem = NDEFTypeSyntax.problem(format, bytes[type]) {
                // lenient: the record is kept as it is, with the issue
                try violation(
                    NDEFError(
                        .invalidType, at: type.lowerBound - bytes.startIndex,
                        "the TYPE of a \(format.name) (TNF \(format.rawValue)) record \(problem)"))
            }
        }
        let record = NFCNDEFPayload(
            format: format,
            type: bytes[type],
            identifier: bytes[physical.identifier],
            payload: bytes[physical.payload]
        )
        if physical.header.isChunked {
            var first = record
            first.chunkSizes = [physical.payload.count]
            open = (first, offset)
        } else {
            records.append(record)
        }
    }

    /// Checks a middle or terminating chunk and appends its payload to the open record.
    private mutating func continueChunk(_ physical: PhysicalRecord, at offset: Int) throws(NDEFError) {
        guard var chunk = open else { return }
        guard physical.format == .unchanged else {
            try violation(
                NDEFError(
                    .chunkNotUnchanged, at: offset,
                    "a chunk after the first has TNF \(physical.format.rawValue), not 6 (unchanged)")
            )
            // lenient: the chunked record ends here; this one starts afresh
            records.append(chunk.record)
            open = nil
            try startRecord(physical, at: offset)
            return
        }
        if !physical.type.isEmpty {
            try violation(NDEFError(.typeNotAllowed, at: offset, "a chunk after the first has a type"))
        }
        if physical.header.hasIdentifierLength {
            try violation(NDEFError(.chunkWithIdentifier, at: offset, "a chunk after the first has an ID (IL flag)"))
        }
        // Release the stored copy first, so the payload grows in place instead of being copied
        // whole for every chunk (quadratic in the message size).
        open = nil
        chunk.record.payload.append(contentsOf: bytes[physical.payload])
        chunk.record.chunkSizes?.append(physical.payload.count)
        if physical.header.isChunked {
            open = chunk
        } else {
            records.append(chunk.record)
        }
    }

    /// Reads one physical record's header and field ranges, checking every length against the input.
    private func readRecord(at index: inout Int, offset: Int, number: Int) throws(NDEFError) -> PhysicalRecord {
        let end = bytes.endIndex
        let header = NDEFRecordHeader(byte: bytes[index])
        let fieldCount = 1 + (header.isShortRecord ? 1 : 4) + (header.hasIdentifierLength ? 1 : 0)
        guard end - index - 1 >= fieldCount else {
            throw NDEFError(.truncated, at: offset, "record \(number): the input ends inside the record header")
        }
        var cursor = index + 1
        let typeLength = Int(bytes[cursor])
        cursor += 1
        var rawPayloadLength: UInt32 = 0
        for _ in 0..<(header.isShortRecord ? 1 : 4) {
            rawPayloadLength = rawPayloadLength << 8 | UInt32(bytes[cursor])
            cursor += 1
        }
        // Only a platform whose Int is narrower than 33 bits can fail this; there the record is
        // necessarily longer than any input it could be in.
        guard let payloadLength = Int(exactly: rawPayloadLength) else {
            throw NDEFError(
                .truncated, at: offset, "record \(number): a \(rawPayloadLength)-byte payload cannot be in memory")
        }
        var identifierLength = 0
        if header.hasIdentifierLength {
            identifierLength = Int(bytes[cursor])
            cursor += 1
        }
        let remaining = end - cursor
        guard typeLength + identifierLength <= remaining, payloadLength <= remaining - typeLength - identifierLength
        else {
            let need = UInt64(typeLength + identifierLength) + UInt64(rawPayloadLength)
            throw NDEFError(
                .truncated,
                at: offset,
                "record \(number): type, ID and payload need \(need) bytes but only \(remaining) remain"
            )
        }
        let typeEnd = cursor + typeLength
        let identifierEnd = typeEnd + identifierLength
        index = identifierEnd + payloadLength
        // The mask keeps the value within 0...7, so the conversion always succeeds.
        return PhysicalRecord(
            header: header,
            format: NFCTypeNameFormat(rawValue: header.rawFormat) ?? .reserved,
            type: cursor..<typeEnd,
            identifier: typeEnd..<identifierEnd,
            payload: identifierEnd..<index
        )
    }
}
