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
            let cursor = NDEFRecordCursor(buffer, base: bytes.startIndex)
            records.reserveCapacity(cursor.recordCount(limit: maximumRecordCount))
            return walkPlain(cursor, maximumRecordCount: maximumRecordCount) { record in
                records.append(
                    NFCNDEFPayload(
                        format: record.format,
                        type: bytes[record.type],
                        identifier: record.identifier.isEmpty ? [] : bytes[record.identifier],
                        payload: bytes[record.payload]
                    ))
            }
        }
        return plain ? records : nil
    }

    /// Whether `bytes` is a plain valid message (see ``decodePlain(_:maximumRecordCount:)``).
    static func isPlain(_ bytes: ArraySlice<UInt8>, maximumRecordCount: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            walkPlain(NDEFRecordCursor(buffer, base: bytes.startIndex), maximumRecordCount: maximumRecordCount) { _ in }
        }
    }

    /// Walks the records `cursor` reads, handing each plain one to `body`; false as soon as one
    /// is not plain (some records may have been handed over by then), true when the message is.
    private static func walkPlain(
        _ start: NDEFRecordCursor,
        maximumRecordCount: Int,
        _ body: (NDEFPhysicalRecord) -> Void
    ) -> Bool {
        var cursor = start
        var count = 0
        while !cursor.isAtEnd {
            guard count < maximumRecordCount, let record = try? cursor.next(number: count) else { return false }
            let header = record.header
            guard !header.isChunked, header.isMessageBegin == (count == 0) else { return false }
            switch record.format {
            case .empty:
                guard record.type.isEmpty, record.identifier.isEmpty, record.payload.isEmpty else { return false }
            case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
                guard !record.type.isEmpty, NDEFTypeSyntax.problem(record.format, cursor.type(of: record)) == nil else {
                    return false
                }
            case .unknown:
                guard record.type.isEmpty else { return false }
            case .unchanged, .reserved:
                return false
            }
            count += 1
            body(record)
            if header.isMessageEnd { return cursor.isAtEnd }
        }
        return false  // empty, or no ME record
    }
}
