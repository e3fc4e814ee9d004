/// Encodes records into an NDEF message (NFC Forum NDEF 1.0, section 3.2).
enum NDEFMessageEncoder {
    /// The bytes one record takes, split into chunks of `chunkSize` when it is given.
    static func encodedSize(of record: NFCNDEFPayload, chunkSize: Int?) -> Int {
        let fixed = record.type.count + record.identifier.count
        let idField = record.identifier.isEmpty ? 0 : 1
        guard let chunkSize, chunkSize > 0, record.payload.count > chunkSize else {
            return 2 + (record.payload.count < 256 ? 1 : 4) + idField + fixed + record.payload.count
        }
        var size = fixed + idField
        var remaining = record.payload.count
        while remaining > 0 {
            let part = min(chunkSize, remaining)
            size += 2 + (part < 256 ? 1 : 4) + part
            remaining -= part
        }
        return size
    }

    static func encode(_ records: [NFCNDEFPayload], chunkSize: Int?) throws(NDEFError) -> [UInt8] {
        guard !records.isEmpty else {
            throw NDEFError(.emptyMessage, "a message needs at least one record (use an empty TNF 0 record for none)")
        }
        if let chunkSize, chunkSize <= 0 {
            throw NDEFError(.invalidChunkSize, "chunk size must be at least 1, not \(chunkSize)")
        }
        var total = 0
        for (index, record) in records.enumerated() {
            try record.validateForEncoding(index: index)
            let (sum, overflow) = total.addingReportingOverflow(encodedSize(of: record, chunkSize: chunkSize))
            guard !overflow else { throw NDEFError(.payloadTooLong, "record \(index): the message is too large") }
            total = sum
        }
        var out: [UInt8] = []
        out.reserveCapacity(total)
        for (index, record) in records.enumerated() {
            let first = index == 0
            let last = index == records.count - 1
            if let chunkSize, record.payload.count > chunkSize {
                appendChunked(record, chunkSize: chunkSize, first: first, last: last, to: &out)
            } else {
                appendRecord(
                    format: record.typeNameFormat,
                    type: record.type,
                    identifier: record.identifier,
                    payload: record.payload,
                    flags: (first ? NDEFRecordHeader.messageBegin : 0) | (last ? NDEFRecordHeader.messageEnd : 0),
                    to: &out
                )
            }
        }
        return out
    }

    /// Writes one record as a first chunk with type and ID, then TNF 6 chunks without them.
    private static func appendChunked(
        _ record: NFCNDEFPayload,
        chunkSize: Int,
        first: Bool,
        last: Bool,
        to out: inout [UInt8]
    ) {
        var start = record.payload.startIndex
        let end = record.payload.endIndex
        var isFirstChunk = true
        while start < end {
            let stop = start + min(chunkSize, end - start)
            let isLastChunk = stop == end
            var flags: UInt8 = isLastChunk ? 0 : NDEFRecordHeader.chunk
            if isFirstChunk && first { flags |= NDEFRecordHeader.messageBegin }
            if isLastChunk && last { flags |= NDEFRecordHeader.messageEnd }
            appendRecord(
                format: isFirstChunk ? record.typeNameFormat : .unchanged,
                type: isFirstChunk ? record.type : [],
                identifier: isFirstChunk ? record.identifier : [],
                payload: record.payload[start..<stop],
                flags: flags,
                to: &out
            )
            isFirstChunk = false
            start = stop
        }
    }

    private static func appendRecord(
        format: NFCTypeNameFormat,
        type: ArraySlice<UInt8>,
        identifier: ArraySlice<UInt8>,
        payload: ArraySlice<UInt8>,
        flags: UInt8,
        to out: inout [UInt8]
    ) {
        var header = flags | format.rawValue
        let short = payload.count < 256
        if short { header |= NDEFRecordHeader.shortRecord }
        if !identifier.isEmpty { header |= NDEFRecordHeader.identifierLength }
        out.append(header)
        out.append(UInt8(truncatingIfNeeded: type.count))
        let length = UInt32(truncatingIfNeeded: payload.count)
        if short {
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(UInt8(truncatingIfNeeded: length >> 24))
            out.append(UInt8(truncatingIfNeeded: length >> 16))
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        }
        if !identifier.isEmpty { out.append(UInt8(truncatingIfNeeded: identifier.count)) }
        out.append(contentsOf: type)
        out.append(contentsOf: identifier)
        out.append(contentsOf: payload)
    }
}
