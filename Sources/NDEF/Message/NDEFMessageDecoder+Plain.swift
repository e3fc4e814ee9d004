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
