/// The records of an encoded NDEF message, checked as a whole and then read one at a time,
/// without collecting them in an array (NFC Forum NDEF 1.0, section 3).
///
/// Creating the sequence decodes strictly, exactly as `NFCNDEFMessage/init(decoding:options:)`
/// does, and throws the same error for the same input; iterating yields the same records
/// (chunked records reassembled, with their ``NFCNDEFPayload/chunkSizes``). What it saves is
/// the array: for a loop that looks at each record once (a reader scanning tags, a server
/// reading many messages) and then forgets it.
///
/// ```swift
/// for record in try NDEFRecordSequence(decoding: bytes) {
///     if case .uri(let link)? = try record.view() { print(link.uri) }
/// }
/// ```
public struct NDEFRecordSequence: Sequence, Sendable {
    /// The message, known to be valid.
    private let bytes: ArraySlice<UInt8>

    /// Checks the message in `bytes` (strict NDEF 1.0 decoding within `options`).
    ///
    /// - Throws: ``NDEFError`` as `NFCNDEFMessage/init(decoding:options:)` would.
    public init(decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions = .init()) throws(NDEFError) {
        if !NDEFMessageDecoder.isPlain(bytes, maximumRecordCount: options.maximumRecordCount) {
            var decoder = NDEFMessageDecoder(bytes, options: options, lenient: false, collecting: false)
            _ = try decoder.decode()
        }
        self.bytes = bytes
    }

    /// Checks the message in `bytes` (strict NDEF 1.0 decoding within `options`).
    public init(decoding bytes: [UInt8], options: NDEFDecodingOptions = .init()) throws(NDEFError) {
        try self.init(decoding: bytes[...], options: options)
    }

    /// The records of `bytes`, a message the caller has decoded strictly before (a typed view
    /// reading the fields of a payload it checked when it was made).
    init(checked bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    public func makeIterator() -> Iterator {
        Iterator(bytes: bytes)
    }

    /// Reads the records of a message the sequence has checked.
    public struct Iterator: IteratorProtocol, Sendable {
        private let bytes: ArraySlice<UInt8>
        /// Where the next record starts, from the start of the message; nil after the last.
        private var offset: Int? = 0

        fileprivate init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
        }

        /// The next logical record: a physical record, or a chunked one reassembled.
        public mutating func next() -> NFCNDEFPayload? {
            // The message was decoded strictly when the sequence was made, so these reads
            // succeed; should one not, the sequence ends rather than trapping.
            guard let start = offset, let (first, afterFirst) = physicalRecord(at: start) else {
                offset = nil
                return nil
            }
            // Decoded strictly: every TYPE has the syntax its TNF requires.
            let record = NFCNDEFPayload(
                format: first.format, in: bytes, type: first.type, identifier: first.identifier,
                payload: first.payload, typeIsChecked: true)
            guard first.header.isChunked else {
                offset = first.header.isMessageEnd ? nil : afterFirst
                return record
            }
            return reassembled(record, after: afterFirst)
        }

        /// The chunked record that starts with `first`, its later chunks read from `start` on.
        private mutating func reassembled(_ first: NFCNDEFPayload, after start: Int) -> NFCNDEFPayload {
            var record = first
            var sizes = [first.payload.count]
            var next = start
            var isLast = false
            while !isLast, let (chunk, afterChunk) = physicalRecord(at: next) {
                record.appendToPayload(bytes[chunk.payload])
                sizes.append(chunk.payload.count)
                next = afterChunk
                isLast = !chunk.header.isChunked
                if isLast { offset = chunk.header.isMessageEnd ? nil : next }
            }
            if !isLast { offset = nil }
            record.chunkSizes = sizes
            return record
        }

        /// The physical record at `offset` and the offset after it, or nil at the end.
        private func physicalRecord(at offset: Int) -> (NDEFPhysicalRecord, next: Int)? {
            let bytes = self.bytes
            return bytes.withUnsafeBufferPointer { buffer in
                var cursor = NDEFRecordCursor(buffer, base: bytes.startIndex, offset: offset)
                guard !cursor.isAtEnd, let record = try? cursor.next(number: 0) else { return nil }
                return (record, cursor.offset)
            }
        }
    }
}
