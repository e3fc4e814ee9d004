/// Encodes records into an NDEF message (NFC Forum NDEF 1.0, section 3.2).
///
/// The encoder validates every record and computes the exact size first, so the output is
/// allocated once and filled with bulk copies of type, ID and payload. Records are read
/// through a pointer: passing them around by value would retain and release their buffers.
enum NDEFMessageEncoder {
    static func encode(
        _ records: [NFCNDEFPayload], chunkSize: Int?, allowingInvalidTypes: Bool = false
    ) throws(NDEFError) -> [UInt8] {
        guard !records.isEmpty else {
            throw NDEFError(.emptyMessage, "a message needs at least one record (use an empty TNF 0 record for none)")
        }
        if let chunkSize, chunkSize <= 0 {
            throw NDEFError(.invalidChunkSize, "chunk size must be at least 1, not \(chunkSize)")
        }
        return try records.withUnsafeBufferPointer { (records) throws(NDEFError) -> [UInt8] in
            guard let first = records.baseAddress else { return [] }
            var total = 0
            for index in records.indices {
                let shape = NDEFRecordShape(first + index)
                try shape.validate(index: index)
                if !allowingInvalidTypes, shape.typeCount > 0, !first[index].typeIsChecked,
                    let problem = first[index].withFields({ type, _, _ in NDEFTypeSyntax.problem(shape.format, type) })
                {
                    throw NDEFError(
                        .invalidType,
                        "record \(index): the TYPE of a \(shape.format.name) (TNF \(shape.format.rawValue)) record "
                            + problem)
                }
                let (sum, overflow) = total.addingReportingOverflow(shape.encodedSize(chunkSize: chunkSize))
                guard !overflow else { throw NDEFError(.payloadTooLong, "record \(index): the message is too large") }
                total = sum
            }
            return makeBytes(count: total) { buffer in
                var writer = NDEFBufferWriter(buffer: buffer)
                let last = records.count - 1
                for index in records.indices {
                    let flags =
                        (index == 0 ? NDEFRecordHeader.messageBegin : 0)
                        | (index == last ? NDEFRecordHeader.messageEnd : 0)
                    writer.write(first + index, chunkSize: chunkSize, flags: flags)
                }
                // The sizes above are exact; a mismatch would be a bug here, never a reaction to input.
                precondition(writer.count == buffer.count, "NDEF encoder size mismatch")
            }
        }
    }
}

/// Zeros to start small outputs from (see ``makeBytes(count:_:)``).
private let zeroBytes = [UInt8](repeating: 0, count: smallOutputLimit)
private let smallOutputLimit = 4096

/// An array of `count` bytes, every one of them written by `fill`.
///
/// Small arrays grow through `reserveCapacity` and start as a bulk copy of zeros: that path is
/// specialized for `UInt8`, while the array initializers that take a count look up generic
/// metadata on every call, which costs more than encoding a short message. Large ones are
/// created uninitialized, as zeroing them would double the memory traffic.
private func makeBytes(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
    if count <= smallOutputLimit {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        zeroBytes.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
        bytes.withUnsafeMutableBufferPointer { fill($0) }
        return bytes
    }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
        initialized = count
    }
}

/// Fills a buffer that ``NDEFMessageEncoder`` sized exactly for the records written into it.
private struct NDEFBufferWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    private mutating func append(_ byte: UInt8) {
        precondition(count < buffer.count, "NDEF encoder size mismatch")
        buffer[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= buffer.count - count, "NDEF encoder size mismatch")
        if let from = bytes.baseAddress, let to = buffer.baseAddress {
            (to + count).update(from: from, count: bytes.count)
        }
        count += bytes.count
    }

    /// Writes one record, as chunks when its payload is longer than `chunkSize`, or, without a
    /// `chunkSize`, in the record's own chunk sizes when it has them (``NDEFRecordShape/chunkSizes``,
    /// checked to add up by the shape's validation).
    mutating func write(_ record: UnsafePointer<NFCNDEFPayload>, chunkSize: Int?, flags: UInt8) {
        let format = record.pointee.typeNameFormat
        let layout = chunkSize == nil ? NDEFRecordShape(record).chunkSizes : nil
        record.pointee.withFields { type, identifier, payload in
            guard layout != nil || chunkSize.map({ payload.count > $0 }) == true else {
                writeFields(format, type, identifier, payload, flags: flags)
                return
            }
            // A first chunk with type and ID, then TNF 6 chunks without them; MB on the
            // first chunk and ME on the last, as `flags` asks (NDEF 1.0, 3.2.3).
            var start = 0
            var number = 0
            while true {
                let size = layout.map { $0[number] } ?? min(chunkSize ?? payload.count, payload.count - start)
                let stop = start + size
                let isFirst = number == 0
                let isLast = layout.map { number == $0.count - 1 } ?? (stop == payload.count)
                number += 1
                var chunkFlags: UInt8 = isLast ? 0 : NDEFRecordHeader.chunk
                if isFirst { chunkFlags |= flags & NDEFRecordHeader.messageBegin }
                if isLast { chunkFlags |= flags & NDEFRecordHeader.messageEnd }
                let part = UnsafeBufferPointer(rebasing: payload[start..<stop])
                if isFirst {
                    writeFields(format, type, identifier, part, flags: chunkFlags)
                } else {
                    writeFields(
                        .unchanged, UnsafeBufferPointer(start: nil, count: 0),
                        UnsafeBufferPointer(start: nil, count: 0), part, flags: chunkFlags)
                }
                start = stop
                if isLast { break }
            }
        }
    }

    /// Writes one record: header (SR when the payload is under 256 bytes, IL when there is an
    /// ID), lengths, then type, ID and payload (NDEF 1.0, 3.2).
    private mutating func writeFields(
        _ format: NFCTypeNameFormat,
        _ type: UnsafeBufferPointer<UInt8>,
        _ identifier: UnsafeBufferPointer<UInt8>,
        _ payload: UnsafeBufferPointer<UInt8>,
        flags: UInt8
    ) {
        var header = flags | format.rawValue
        let short = payload.count < 256
        if short { header |= NDEFRecordHeader.shortRecord }
        if !identifier.isEmpty { header |= NDEFRecordHeader.identifierLength }
        append(header)
        append(UInt8(truncatingIfNeeded: type.count))
        let length = UInt32(truncatingIfNeeded: payload.count)
        if short {
            append(UInt8(truncatingIfNeeded: length))
        } else {
            append(UInt8(truncatingIfNeeded: length >> 24))
            append(UInt8(truncatingIfNeeded: length >> 16))
            append(UInt8(truncatingIfNeeded: length >> 8))
            append(UInt8(truncatingIfNeeded: length))
        }
        if !identifier.isEmpty { append(UInt8(truncatingIfNeeded: identifier.count)) }
        append(type)
        append(identifier)
        append(payload)
    }
}
