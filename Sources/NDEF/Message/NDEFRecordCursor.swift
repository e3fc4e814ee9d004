/// One physical record as laid out in a message: its header and the index ranges of its
/// fields in the input (NFC Forum NDEF 1.0, section 3.2, figure 3).
struct NDEFPhysicalRecord {
    var header: NDEFRecordHeader
    var format: NFCTypeNameFormat
    var type: Range<Int>
    var identifier: Range<Int>
    var payload: Range<Int>
}

/// Walks the physical records of an NDEF message, one header at a time (NFC Forum NDEF 1.0,
/// section 3.2).
///
/// The only code that reads record headers and lengths: the decoder, strict or lenient, and
/// the capacity estimate before it both go through it, so they cannot disagree on where a
/// record starts or ends. Every length is checked against the bytes that remain before it
/// is used; a record that does not fit throws ``NDEFError/Code/truncated`` and leaves the
/// cursor where it was.
///
/// It reads the message through a pointer (valid while the caller's
/// `withUnsafeBufferPointer` runs), so walking costs no reference counting; the ranges it
/// returns are indices of the `ArraySlice` the pointer came from.
struct NDEFRecordCursor {
    /// The message.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the first byte in the caller's slice.
    private let base: Int
    /// Where the next record starts, as an offset into `bytes`.
    private(set) var offset = 0

    /// A cursor at the record that starts `offset` bytes into `bytes`, whose first byte has
    /// index `base` in the caller's slice.
    init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int, offset: Int = 0) {
        self.bytes = bytes
        self.base = base
        self.offset = offset
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// How many bytes have not been read.
    var remainingCount: Int { bytes.count - offset }

    /// Reads the next record's header and field ranges and moves past it.
    ///
    /// - Parameter number: the record's position, for error messages.
    /// - Throws: ``NDEFError/Code/truncated`` when the header or the fields it announces run
    ///   past the input.
    @inline(__always)  // the hot loop of every decoder; its error paths are apart
    mutating func next(number: Int) throws(NDEFError) -> NDEFPhysicalRecord {
        let end = bytes.count
        let start = offset
        let header = NDEFRecordHeader(byte: bytes[start])
        // TYPE LENGTH, PAYLOAD LENGTH (1 or 4 bytes), ID LENGTH when IL is set.
        let lengthsEnd = start + 2 + (header.isShortRecord ? 1 : 4) + (header.hasIdentifierLength ? 1 : 0)
        guard lengthsEnd <= end else { throw Self.truncatedHeader(at: start, number: number) }
        let typeLength = Int(bytes[start + 1])
        var payloadLength = Int(bytes[start + 2])
        if !header.isShortRecord {
            payloadLength =
                payloadLength << 24 | Int(bytes[start + 3]) << 16 | Int(bytes[start + 4]) << 8 | Int(bytes[start + 5])
        }
        let identifierLength = header.hasIdentifierLength ? Int(bytes[lengthsEnd - 1]) : 0
        let remaining = end - lengthsEnd
        // typeLength and identifierLength are below 256 and payloadLength below 2^32; on a
        // 32-bit platform a length that wrapped negative is caught by the last comparison.
        guard typeLength + identifierLength <= remaining, payloadLength <= remaining - typeLength - identifierLength,
            payloadLength >= 0
        else {
            let need = UInt64(typeLength + identifierLength) + UInt64(UInt32(truncatingIfNeeded: payloadLength))
            throw Self.truncatedFields(at: start, number: number, need: need, remaining: remaining)
        }
        let typeEnd = lengthsEnd + typeLength
        let identifierEnd = typeEnd + identifierLength
        offset = identifierEnd + payloadLength
        return NDEFPhysicalRecord(
            header: header,
            format: NFCTypeNameFormat(lowBitsOf: header.byte),
            type: base + lengthsEnd..<base + typeEnd,
            identifier: base + typeEnd..<base + identifierEnd,
            payload: base + identifierEnd..<base + offset
        )
    }

    /// The error for a header cut short (built apart, so the reading path stays small).
    @inline(never)
    private static func truncatedHeader(at offset: Int, number: Int) -> NDEFError {
        NDEFError(.truncated, at: offset, "record \(number): the input ends inside the record header")
    }

    /// The error for fields that run past the input (built apart, as above).
    @inline(never)
    private static func truncatedFields(at offset: Int, number: Int, need: UInt64, remaining: Int) -> NDEFError {
        NDEFError(
            .truncated, at: offset,
            "record \(number): type, ID and payload need \(need) bytes but only \(remaining) remain")
    }

    /// The TYPE field of `record` (read by this cursor) in memory, to check its syntax.
    func type(of record: NDEFPhysicalRecord) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[record.type.lowerBound - base..<record.type.upperBound - base])
    }

    /// How many records a decoder will read, at most `limit`: the records up to and including
    /// the first with ME, or up to the first that does not fit. For reserving storage once.
    func recordCount(limit: Int) -> Int {
        var cursor = self
        var count = 0
        while count < limit, !cursor.isAtEnd, let record = try? cursor.next(number: count) {
            count += 1
            if record.header.isMessageEnd { break }
        }
        return count
    }
}

/// The flags byte that starts every NDEF record (NFC Forum NDEF 1.0, section 3.2).
struct NDEFRecordHeader: Hashable {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let identifierLength: UInt8 = 0x08
    static let formatMask: UInt8 = 0x07

    var byte: UInt8

    var isMessageBegin: Bool { byte & Self.messageBegin != 0 }
    var isMessageEnd: Bool { byte & Self.messageEnd != 0 }
    var isChunked: Bool { byte & Self.chunk != 0 }
    var isShortRecord: Bool { byte & Self.shortRecord != 0 }
    var hasIdentifierLength: Bool { byte & Self.identifierLength != 0 }
}
