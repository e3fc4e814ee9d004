/// An NDEF message: one or more records (NFC Forum NDEF 1.0, section 3.1).
///
/// The name follows CoreNFC's `NFCNDEFMessage`. Decoding is strict by default and follows
/// NDEF 1.0 exactly; `recovering(from:options:)` is the lenient alternative.
public struct NFCNDEFMessage: Sendable, Hashable {
    /// The logical records, chunked records reassembled.
    public var records: [NFCNDEFPayload]

    /// Creates a message from records.
    public init(records: [NFCNDEFPayload]) {
        self.records = records
    }

    /// Decodes a message, enforcing every rule of NDEF 1.0 (strict).
    ///
    /// Throws ``NDEFError`` with the offset of the first violation. The records share storage
    /// with `bytes`; no payload is copied unless it was chunked.
    public init(decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions = .init()) throws(NDEFError) {
        // Most messages are plain (no chunks, nothing to report): read them without the full
        // decoder's bookkeeping. The full decoder gives the same records, and the errors.
        if let records = NDEFMessageDecoder.decodePlain(bytes, maximumRecordCount: options.maximumRecordCount) {
            self.records = records
            return
        }
        var decoder = NDEFMessageDecoder(bytes, options: options, lenient: false)
        self.records = try decoder.decode()
    }

    /// Decodes a message, enforcing every rule of NDEF 1.0 (strict).
    public init(decoding bytes: [UInt8], options: NDEFDecodingOptions = .init()) throws(NDEFError) {
        try self.init(decoding: bytes[...], options: options)
    }

    /// Decodes what can be recovered from a damaged or non-conforming message.
    ///
    /// Trailing bytes after the ME record are ignored, a missing MB or ME flag is accepted,
    /// TNF 7 and misplaced TNF 6 are read as unknown, a type where none is allowed is dropped,
    /// a truncated last record is dropped; each such step is reported in ``NDEFRecovery/issues``.
    /// Throws only when not a single record can be recovered, or a limit is exceeded.
    public static func recovering(
        from bytes: ArraySlice<UInt8>,
        options: NDEFDecodingOptions = .init()
    ) throws(NDEFError) -> NDEFRecovery {
        var decoder = NDEFMessageDecoder(bytes, options: options, lenient: true)
        let records = try decoder.decode()
        return NDEFRecovery(message: NFCNDEFMessage(records: records), issues: decoder.issues)
    }

    /// Decodes what can be recovered from a damaged or non-conforming message.
    public static func recovering(
        from bytes: [UInt8],
        options: NDEFDecodingOptions = .init()
    ) throws(NDEFError) -> NDEFRecovery {
        try recovering(from: bytes[...], options: options)
    }

    /// The size of the encoded message in bytes, without chunking.
    ///
    /// As CoreNFC's `length`: what the message needs on a tag (before any TLV wrapping).
    public var length: Int {
        records.withUnsafeBufferPointer { records in
            guard let first = records.baseAddress else { return 0 }
            return records.indices.reduce(0) { $0 + NDEFRecordShape(first + $1).encodedSize(chunkSize: nil) }
        }
    }

    /// Encodes the message: SR when a payload is under 256 bytes, IL when there is an ID,
    /// MB on the first record and ME on the last (NDEF 1.0, 3.2).
    ///
    /// - Parameter chunkSize: when given, payloads longer than this are sent as chunked
    ///   records (NDEF 1.0, 3.2.3) of at most `chunkSize` bytes each.
    /// - Throws: ``NDEFError`` naming the record that cannot be encoded.
    public func encoded(chunkSize: Int? = nil) throws(NDEFError) -> [UInt8] {
        try NDEFMessageEncoder.encode(records, chunkSize: chunkSize)
    }

    /// The message encoded as ``encoded(chunkSize:)`` does, but with `allowingInvalidTypes`
    /// a TYPE that breaks the syntax of its TNF (NDEF 1.0, 3.2.6) is written as it is instead of
    /// being refused with ``NDEFError/Code/invalidType``: for test data, and for reproducing what
    /// a tag in the field holds.
    public func encoded(chunkSize: Int? = nil, allowingInvalidTypes: Bool) throws(NDEFError) -> [UInt8] {
        try NDEFMessageEncoder.encode(records, chunkSize: chunkSize, allowingInvalidTypes: allowingInvalidTypes)
    }
}
