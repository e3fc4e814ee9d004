extension NDEFMessageDecoder {
    /// Decodes `bytes` when it is a plain valid message, or returns nil so the full decoder can
    /// take over and report exactly what is wrong.
    ///
    /// "Plain" means no chunked records: every record is complete, MB is set on the first
    /// record only, ME on the last only, nothing follows it, TNF 0 records are empty, TNF 1-4
    /// records have a type of the syntax their TNF requires (``NDEFTypeSyntax``) and TNF 5 records have none (NDEF 1.0, 3.2.6). TNF 6 and 7 and every
    /// other case go to the full decoder. Whatever this accepts the full decoder accepts too,
    /// with the same result; the fuzz target checks that on every input.
    static func decodePlain(_ bytes: ArraySlice<UInt8>, maximumRecordCount: Int) -> [NFCNDEFPayload]? {
        var records: [NFCNDEFPayload] = []
        let end = bytes.endIndex
        var index = bytes.startIndex
        while index < end {
            guard records.count < maximumRecordCount else { return nil }
            let header = NDEFRecordHeader(byte: bytes[index])
            guard !header.isChunked, header.isMessageBegin == records.isEmpty else { return nil }
            let lengthBytes = header.isShortRecord ? 1 : 4
            let fieldsEnd = index + 2 + lengthBytes + (header.hasIdentifierLength ? 1 : 0)
            guard fieldsEnd <= end else { return nil }
            let typeLength = Int(bytes[index + 1])
            var payloadLength = Int(bytes[index + 2])
            if !header.isShortRecord {
                payloadLength =
                    payloadLength << 24 | Int(bytes[index + 3]) << 16 | Int(bytes[index + 4]) << 8
                    | Int(bytes[index + 5])
            }
            let identifierLength = header.hasIdentifierLength ? Int(bytes[fieldsEnd - 1]) : 0
            let typeEnd = fieldsEnd + typeLength
            let identifierEnd = typeEnd + identifierLength
            // payloadLength < 2^32, so on a 64-bit Int the sum cannot overflow.
            guard identifierEnd <= end, payloadLength <= end - identifierEnd else { return nil }
            let payloadEnd = identifierEnd + payloadLength
            guard let format = NFCTypeNameFormat(rawValue: header.rawFormat) else { return nil }
            switch format {
            case .empty:
                guard typeLength == 0, identifierLength == 0, payloadLength == 0 else { return nil }
            case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
                guard typeLength > 0, NDEFTypeSyntax.problem(format, bytes[fieldsEnd..<typeEnd]) == nil else {
                    return nil
                }
            case .unknown:
                guard typeLength == 0 else { return nil }
            case .unchanged, .reserved:
                return nil
            }
            records.append(
                NFCNDEFPayload(
                    format: format,
                    type: bytes[fieldsEnd..<typeEnd],
                    identifier: bytes[typeEnd..<identifierEnd],
                    payload: bytes[identifierEnd..<payloadEnd]
                )
            )
            index = payloadEnd
            if header.isMessageEnd {
                return index == end ? records : nil
            }
        }
        return nil  // no ME record
    }
}
